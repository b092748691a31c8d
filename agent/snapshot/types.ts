import type { Page } from '@playwright/test';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface NodeStates {
  checked?: boolean | 'mixed';
  selected?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  required?: boolean;
  pressed?: boolean | 'mixed';
  level?: number;
  invalid?: boolean;
}

export interface SnapshotNode {
  ref?: string;
  role: string;
  name?: string;
  text?: string;
  url?: string;
  /** Current value of a form control (textbox text, slider position, selected option). Masked for password fields. */
  value?: string;
  placeholder?: string;
  /** For a native <select>: its option labels (the options themselves carry no ref). */
  options?: string[];
  states: NodeStates;
  /** The snapshot marked it cursor:pointer (a clickable element whose role says nothing, e.g. a div). */
  clickable?: boolean;
  /** Viewport-relative CSS pixels of the top-level page (iframe offsets applied). */
  box?: Box;
  inViewport: boolean;
  /** Nearest enclosing landmark role (main, navigation, banner, …). */
  landmark?: string;
  /** Ref of the enclosing <iframe> node when the node lives in a child frame. */
  frameRef?: string;
  /** Set by pruning; higher survives the token budget first. */
  score: number;
}

export interface DomConfidence {
  score: number;
  /** Share of the viewport area covered by <canvas> (0..1). */
  canvasShare: number;
  unlabeledInteractive: number;
  svgOnlyIcons: number;
  semanticNodes: number;
  interactive: number;
  totalNodes: number;
}

export interface ScrollState {
  x: number;
  y: number;
  maxY: number;
  viewportHeight: number;
  atEnd: boolean;
}

export interface ObservationStats {
  rawNodes: number;
  keptNodes: number;
  prunedNodes: number;
  belowFold: number;
  /** Length of the raw AI snapshot as Playwright's YAML would print it (estimated from the JSON, no boxes). */
  rawChars: number;
  textChars: number;
  estimatedTokens: number;
  tookMs: number;
}

export interface Observation {
  url: string;
  title: string;
  /** Header + indexed lines: the page state the model sees. */
  text: string;
  /** Kept nodes in document order. */
  nodes: SnapshotNode[];
  /** Every ref of the raw snapshot, kept or pruned, so the action layer can describe any element. */
  refs: Map<string, SnapshotNode>;
  interactiveCount: number;
  scroll: ScrollState;
  confidence: DomConfidence;
  stats: ObservationStats;
}

export interface ObserveOptions {
  keywords?: string[];
  tokenBudget?: number;
  mustKeep?: (node: SnapshotNode) => boolean;
  signal?: AbortSignal;
}

export type ObservePage = Pick<Page, 'ariaSnapshotJSON' | 'evaluate' | 'url' | 'screenshot'>;
