import { applyPattern, coerceValue, type ValueType } from '../actions/values/coerce';
import { mentionsAny } from './templatize';

/**
 * Extraction patterns that hold for every sample, not just the one recorded: the value's own characters are
 * replaced by the shape they share (a count, a date, an id, any text), the constant words around it kept.
 */

interface Shape {
  name: string;
  regex: string;
  test(text: string): boolean;
}

const SHAPES: Shape[] = [
  { name: 'iso-date', regex: '\\d{4}-\\d{2}-\\d{2}', test: t => /^\d{4}-\d{2}-\d{2}$/.test(t) },
  { name: 'number', regex: '-?\\d[\\d,]*(?:\\.\\d+)?\\s*[kKmMbB]?', test: t => /^-?\d[\d,]*(?:\.\d+)?\s*[kmb]?$/i.test(t) },
  { name: 'hex-id', regex: '[0-9a-f]{7,64}', test: t => /^[0-9a-f]{7,64}$/.test(t) && /\d/.test(t) },
  { name: 'email', regex: '[^\\s@]+@[^\\s@]+', test: t => /^[^\s@]+@[^\s@]+$/.test(t) },
  { name: 'url', regex: 'https?://\\S+', test: t => /^https?:\/\/\S+$/.test(t) },
  { name: 'text', regex: '.+', test: t => t.length > 0 },
];

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The most specific shape every example fits. */
export function shapeOf(examples: readonly string[]): Shape {
  const texts = examples.map(normalise).filter(Boolean);
  return SHAPES.find(shape => texts.length > 0 && texts.every(t => shape.test(t))) ?? SHAPES[SHAPES.length - 1]!;
}

export interface PatternInput {
  /** The element's text as extract reads it. */
  raw: string;
  /** The value the sample produced. */
  value: unknown;
  type?: ValueType;
  /** The pattern the model used, if any. */
  modelPattern?: string;
  /** Other samples' values of the same field, when known: the shape must fit them too. */
  otherValues?: readonly unknown[];
  /** Strings specific to this sample: constant context around the value must not contain them. */
  sampleValues: readonly string[];
}

/** Candidate patterns, best first; each one reproduces the value from raw (checked here). */
export function patternCandidates(input: PatternInput): string[] {
  const out: string[] = [];
  const add = (pattern: string | undefined) => {
    if (pattern && !out.includes(pattern) && reproduces(pattern, input)) out.push(pattern);
  };
  if (input.modelPattern && !literalValueIn(input.modelPattern, input.value)) add(input.modelPattern);
  const shown = shownText(input.raw, input.value);
  if (shown !== undefined) {
    const examples = [shown, ...(input.otherValues ?? []).flatMap(v => (v === null || v === undefined ? [] : [String(v)]))];
    const shape = shapeOf(examples);
    const text = normalise(input.raw);
    const at = text.indexOf(shown);
    const before = at >= 0 ? constantContext(text.slice(0, at), 'before', input.sampleValues) : '';
    const after = at >= 0 ? constantContext(text.slice(at + shown.length), 'after', input.sampleValues) : '';
    const whole = at === 0 && shown.length === text.length;
    if (whole) add(`^\\s*(${shape.regex})\\s*$`);
    add(`${before}(${shape.regex})${after}`);
    if (before || after) add(`(${shape.regex})${after}`);
  }
  return out;
}

/** A pattern that spells out the recorded value would only ever match this sample. */
function literalValueIn(pattern: string, value: unknown): boolean {
  const forms = typeof value === 'number' ? [String(value), value.toLocaleString('en-US')] : typeof value === 'string' ? [value] : [];
  return forms.some(form => form.length >= 2 && (pattern.includes(form) || pattern.includes(escapeRegex(form))));
}

/** How the value appears in the element's text ("1,234" for 1234), if it does. */
function shownText(raw: string, value: unknown): string | undefined {
  const text = normalise(raw);
  if (typeof value === 'string') return text.includes(normalise(value)) ? normalise(value) : undefined;
  if (typeof value === 'number') {
    for (const form of [value.toLocaleString('en-US'), String(value)]) if (text.includes(form)) return form;
    const match = /-?\d[\d,]*(?:\.\d+)?\s*[kmb]?/i.exec(text);
    return match?.[0];
  }
  return undefined;
}

/** Up to two words next to the value, kept only when they are the page's own wording ("followers"). */
function constantContext(side: string, where: 'before' | 'after', sampleValues: readonly string[]): string {
  const words = side.trim().split(' ').filter(Boolean);
  const near = where === 'before' ? words.slice(-2) : words.slice(0, 2);
  const text = near.join(' ');
  if (!text || mentionsAny(text, sampleValues) || /\d/.test(text) || text.length > 40) return '';
  const escaped = escapeRegex(text).replace(/ /g, '\\s+');
  return where === 'before' ? `${escaped}\\s*` : `\\s*${escaped}`;
}

function reproduces(pattern: string, input: PatternInput): boolean {
  try {
    const matched = applyPattern(input.raw, pattern);
    if (matched === null) return false;
    const value = coerceValue(matched, input.type ?? 'string');
    return sameValue(value, input.value);
  } catch {
    return false;
  }
}

/** Values equal as the CSV would show them; null, "" and [] are all "empty". */
export function sameValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (typeof a === 'string' && typeof b === 'string') return normalise(a) === normalise(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  return JSON.stringify(a) === JSON.stringify(b);
}
