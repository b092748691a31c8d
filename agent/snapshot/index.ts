/**
 * Perception: the agent's view of a page, built on Playwright's AI snapshot
 * (`page.ariaSnapshotJSON({ mode: 'ai', boxes: true })`, refs resolved with `page.getByRef`).
 *
 * `observe(page, options)` takes exactly one AI snapshot and one evaluate, and returns `text` — a header
 * (URL, title, scroll, counts) and one line per kept node, indented by kept ancestors:
 *
 *   [e14] link "analytical-engine" → /ada/analytical-engine
 *   [e18] textbox "Search" value="hello" (required)
 *   [e20] iframe
 *    [f1e3] button "Submit"
 *   text "1,234 followers · 12 following"
 *
 * Another AI snapshot of the same frame (any `ariaSnapshot*` call, any mode) invalidates the refs.
 */
export { observe } from './observe';
export { buildObservation, type BuildOptions } from './build';
export { defaultTokenBudget, estimateTokens, historyTokenBudget, promptTokenBudget } from './tokens';
export { describeNode, formatNodeLine } from './serialize';
export { MASKED_VALUE } from './enrich';
export { isInteractiveRole } from './roles';
export type { PageMetrics } from './page-metrics';
export type { Box, DomConfidence, NodeStates, Observation, ObservationStats, ObserveOptions, ObservePage, ScrollState, SnapshotNode } from './types';
