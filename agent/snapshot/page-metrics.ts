import { z } from 'zod';

/**
 * Everything observe() needs from the live DOM besides the AI snapshot, gathered in ONE evaluate that only
 * reads (no focus, scroll, hover or attribute change): confidence inputs the accessibility tree cannot see
 * (canvas area, unlabeled SVG icons), scroll and viewport, a title that falls back to og:title and the h1,
 * the facts of form controls the snapshot leaves out (input type, range, pattern, required, read-only,
 * password), name-less or snapshot-less clickables with what hints at their purpose, and list items that
 * hold a sub-list (tree folders). Boxes are rounded exactly like Playwright rounds snapshot boxes, so they
 * match node for node. Only the top-level document and its open shadow roots are inspected. This file holds what
 * the evaluate returns (its schema) and the words it is given; the function that runs in the page is
 * page-metrics-in-page.ts.
 */

const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

const controlFactSchema = z.object({
  box: boxSchema,
  tag: z.enum(['input', 'textarea', 'select']),
  type: z.string(),
  required: z.boolean(),
  readonly: z.boolean(),
  password: z.boolean(),
  multiple: z.boolean(),
  min: z.string().optional(),
  max: z.string().optional(),
  step: z.string().optional(),
  pattern: z.string().optional(),
  maxLength: z.number().optional(),
  /** The value exactly, when its spaces matter (leading, trailing, doubled): the snapshot trims them. Never for passwords. */
  exactValue: z.string().optional(),
});
export type ControlFact = z.infer<typeof controlFactSchema>;

const clickableFactSchema = z.object({
  box: boxSchema,
  /** A CSS path the action layer can resolve when the snapshot has no ref for the element. */
  selector: z.string(),
  /** Boxes (`x,y,width,height`) of its nearest ancestors, nearest first: it belongs with the first the snapshot has. */
  holders: z.array(z.string()).max(4).default([]),
  /** Its identity in the page (element-ids.ts): the same element keeps it, a redrawn one gets another. */
  element: z.string().optional(),
  tag: z.string(),
  /** aria-label, title, alt, an SVG <title> or a sprite id: what the element says it is, though not as text. */
  label: z.string().optional(),
  /** Words from the class names of the element and its icon (`icon-send` → "send"). */
  icon: z.string().optional(),
  /** The closest short visible text beside it. */
  near: z.string().optional(),
  /** A handle on a track: its position along the track, 0–100. */
  track: z.number().optional(),
  /** Short text of a clickable leaf the snapshot merged into its parent's text ("Q", "K", "Z" → "QKZ"; "-" and "+" → "- +"). */
  text: z.string().optional(),
  /** A class word that says the control is on ("starred", "liked", "active"), as the page wrote it. */
  state: z.string().optional(),
  /** ARIA states on an element without a role (the snapshot reads them only for roles that have them). */
  pressed: z.boolean().optional(),
  checked: z.boolean().optional(),
  selected: z.boolean().optional(),
});
export type ClickableFact = z.infer<typeof clickableFactSchema>;

const sublistFactSchema = z.object({ box: boxSchema, open: z.boolean() });

/** A slider, spinner or meter drawn without an input: its ARIA value (the snapshot prints none for it). */
const rangeFactSchema = z.object({ box: boxSchema, value: z.string(), min: z.string().optional(), max: z.string().optional() });
export type RangeFact = z.infer<typeof rangeFactSchema>;
export type SublistFact = z.infer<typeof sublistFactSchema>;

/** Disclosure controls: `aria-expanded` (the snapshot drops "false") and <summary> (the snapshot sees no control). */
const toggleFactSchema = z.object({ box: boxSchema, expanded: z.boolean(), summary: z.boolean() });
export type ToggleFact = z.infer<typeof toggleFactSchema>;

/** An element that scrolls its own content (overflow auto or scroll) and has more of it than it shows. */
const scrollerFactSchema = z.object({ box: boxSchema, scrollTop: z.number(), clientHeight: z.number(), scrollHeight: z.number() });
export type ScrollerFact = z.infer<typeof scrollerFactSchema>;
export const pageMetricsSchema = z.object({
  title: z.string(),
  viewportWidth: z.number(),
  viewportHeight: z.number(),
  /** The page's writing direction: a line is read from its right on a right-to-left page. */
  direction: z.enum(['ltr', 'rtl']).default('ltr'),
  scrollX: z.number(),
  scrollY: z.number(),
  scrollHeight: z.number(),
  totalElements: z.number(),
  canvasShare: z.number(),
  unnamedImageShare: z.number(),
  svgOnlyIcons: z.number(),
  /** The part of the viewport holding those pixels-only elements (canvas, unnamed pictures, unlabeled SVG icons), in viewport coordinates. */
  pixelOnlyRegion: boxSchema.optional(),
  controls: z.array(controlFactSchema),
  clickables: z.array(clickableFactSchema),
  sublists: z.array(sublistFactSchema),
  ranges: z.array(rangeFactSchema),
  toggles: z.array(toggleFactSchema),
  scrollers: z.array(scrollerFactSchema),
});
export type PageMetrics = z.infer<typeof pageMetricsSchema>;

export const MAX_CLICKABLE_FACTS = 400;
/** A control about one line high is one control, icons and all; a taller item (a mail row) holds controls of its own. */
export const ONE_LINE_PX = 48;
export const MAX_SCROLLER_FACTS = 40;

/** Class-name words that say nothing about what an icon does. */
export const ICON_NOISE_WORDS = [
  'icon',
  'icons',
  'ico',
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'fad',
  'svg',
  'glyph',
  'glyphicon',
  'material',
  'symbols',
  'outlined',
  'rounded',
  'sharp',
  'filled',
  'solid',
  'regular',
  'light',
  'btn',
  'button',
  'ui',
  'state',
  'default',
  'corner',
  'all',
  'js',
  'is',
  'has',
  'active',
  'inline',
  'block',
  'flex',
  'small',
  'large',
  'sm',
  'lg',
  'xs',
  'md',
  'xl',
  'left',
  'right',
  'top',
  'bottom',
  'wrapper',
  'wrap',
  'container',
  'inner',
  'outer',
  'item',
  'el',
  'c',
  'l',
  'clickable',
  'pointer',
  'link',
  'primary',
  'secondary',
  'size',
  'color',
  'white',
  'black',
  'dark',
  'hover',
  'focus',
  'disabled',
  'visible',
  'hidden',
  'show',
  'widget',
  'component',
  'mr',
  'ml',
  'mt',
  'mb',
  'px',
  'py',
  'p',
  'm',
];

/** Class words that say a control is on, whatever it is: anything else that is on shows as "<word>ed" beside its word ("star starred"). */
export const ICON_STATE_WORDS = ['active', 'selected', 'checked', 'pressed', 'current', 'on'];
