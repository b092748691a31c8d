import type { Page } from '@playwright/test';
import type { DocumentFact } from './document-facts';

/** A document fact with the ref it is printed and read by; `also` are the other places that say the same. */
export interface NumberedFact extends DocumentFact {
  ref: string;
  also: Array<Pick<DocumentFact, 'source' | 'key'>>;
}

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
  readonly?: boolean;
}

/** What the page says about a form control beyond its role (from the page-side facts, matched by box). */
export interface ControlInfo {
  /** The input type when it tells the model how to fill it (date, time, number, email, file, range, …), or `multiline`. */
  type?: string;
  min?: string;
  max?: string;
  step?: string;
  pattern?: string;
  maxLength?: number;
  multiple?: boolean;
}

/** How a control without an accessible name presents itself: what a person would go by. */
export interface Hint {
  label?: string;
  icon?: string;
  /** The class word saying it is on ("starred"), as the page wrote it. */
  state?: string;
  near?: string;
  /** `near` holds the words of the item it sits in (the post, the row), which tell it from its twins in the other items. */
  nearNamesItem?: boolean;
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
  control?: ControlInfo;
  /** For a control with no accessible name: aria/title/alt text, icon words and the text beside it. */
  hint?: Hint;
  /** A list item or tree item holding a sub-list: a folder (open or not), as opposed to a leaf. */
  folder?: { open: boolean };
  /** A handle on a track (a slider without ARIA): its position along the track, 0–100. */
  track?: number;
  /** A container that scrolls its own content: how many of its items it holds, and hides above and below (scrollers.ts). */
  scroller?: { items: number; above: number; below: number; offset: number };
  /** Set on elements the AI snapshot does not contain: the CSS path their `c<N>` ref resolves to. */
  selector?: string;
  /** With `selector`: the element's identity in the page (element-ids.ts), so a redrawn path is not taken for it. */
  element?: string;
  /** Viewport-relative CSS pixels of the top-level page (iframe offsets applied). */
  box?: Box;
  inViewport: boolean;
  /** Nearest enclosing landmark role (main, navigation, banner, …). */
  landmark?: string;
  /** Ref of the enclosing <iframe> node when the node lives in a child frame. */
  frameRef?: string;
}

export interface DomConfidence {
  score: number;
  /** Share of the viewport area covered by <canvas> (0..1). */
  canvasShare: number;
  /** Share of the viewport area covered by loaded pictures without a text alternative (0..1). */
  unnamedImageShare: number;
  unlabeledInteractive: number;
  svgOnlyIcons: number;
  semanticNodes: number;
  interactive: number;
  /** Characters of running text and headings the tree has inside the viewport. */
  viewportTextChars: number;
  totalNodes: number;
  /** Where in the viewport the canvases, unnamed pictures and unlabeled SVG icons are (viewport coordinates). */
  pixelOnlyRegion?: { x: number; y: number; width: number; height: number };
  /** Name-less controls in the viewport that the page state prints alike (confidence.ts lookAlikeControls). */
  lookAlikeControls: number;
  /** Every control in the viewport. */
  controlsInView: number;
  /** Where those controls are (viewport coordinates). */
  lookAlikeRegion?: Box;
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
  /** Characters of names and text in the whole tree: near 0, the tree is empty (see hidden-text.ts). */
  treeTextChars: number;
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
  /** A digest of what the page shows (fingerprint.ts): equal on two looks when nothing on the page changed between them. */
  fingerprint: string;
  /** Refs of the controls that page forward (a pager's links, a "load more"), found by structure (pagination.ts). */
  pagination: ReadonlySet<string>;
  confidence: DomConfidence;
  stats: ObservationStats;
  /** Regions and runs left out of the text, each printed as one line the model can `expand`. */
  stubs: Stub[];
  /** The whole flattened page, for `expand` and `find` (which read it without taking another snapshot). */
  outline: Outline;
  /** What the page says about itself, numbered d1, d2, … as the document section prints them. */
  document: NumberedFact[];
}

export interface StubCounts {
  links: number;
  buttons: number;
  fields: number;
  rows: number;
  items: number;
  headings: number;
  texts: number;
}

/** A collapsed region (a landmark, a list, a table, a long run of siblings) shown as one line. */
export interface Stub {
  /** The ref printed on the stub line; `expand <ref>` opens it. */
  ref: string;
  /** Index of the collapsed node (region) or of the first node of the run, in the outline. */
  index: number;
  /** Exclusive end of what the stub covers, in the outline. */
  end: number;
  kind: 'region' | 'run';
  /** For a run: how many siblings it spans, so `expand` opens exactly them. */
  siblings: number;
  counts: StubCounts;
  /** Every ref the stub stands for (interactive or not), so nothing in it is lost for good. */
  covers: ReadonlySet<string>;
}

export interface OutlineEntry {
  node: SnapshotNode;
  parent: number;
  end: number;
  depth: number;
  fragment: boolean;
}

export interface Outline {
  entries: readonly OutlineEntry[];
  keywords: readonly string[];
  /** Page origin, for printing same-site links as paths. */
  origin?: string;
}

export interface ObserveOptions {
  keywords?: string[];
  tokenBudget?: number;
  mustKeep?: (node: SnapshotNode) => boolean;
  /** Refs the agent asked to see (`expand`) or found (`find`): shown first, their regions open. */
  focus?: PageFocus;
  /** Refs of the previous observation of the same page: what is new (an opened menu, a message) ranks first. */
  previousRefs?: ReadonlySet<string>;
  /**
   * The document section: true (the first look at a page) prints it within its token budget, 'whole' (`expand d0`)
   * every line, false its one-line stub.
   */
  showDocument?: boolean | 'whole';
  signal?: AbortSignal;
}

/**
 * What `expand` asked to open: a region's subtree, or a run of `siblings` siblings. A run is found again from its
 * ref: the ancestor of the ref's node at `depth` is the sibling `offset` places after the run's first.
 */
export interface ExpandRequest {
  kind: 'region' | 'run';
  siblings: number;
  depth?: number;
  offset?: number;
}

export interface PageFocus {
  /** Refs to open, with what each opens. */
  expanded: ReadonlyMap<string, ExpandRequest>;
  found: ReadonlySet<string>;
}

export type ObservePage = Pick<Page, 'ariaSnapshotJSON' | 'evaluate' | 'url' | 'screenshot'>;
