export { observe } from './observe';
export { buildObservation, type BuildOptions } from './build';
export { defaultTokenBudget, estimateTokens, promptTokenBudget } from './tokens';
export { describeNode, formatNodeLine } from './serialize';
export { buildVisionQuestion, DEFAULT_VISION_THRESHOLD, VISION_SECTION_TITLE } from './vision';
export { MASKED_VALUE } from './enrich';
export { isInteractiveRole } from './roles';
export type { PageMetrics } from './page-metrics';
export type {
  Box, DomConfidence, NodeStates, Observation, ObservationStats, ObserveOptions, ObservePage, ScrollState, SnapshotNode,
  VisionHook,
} from './types';
