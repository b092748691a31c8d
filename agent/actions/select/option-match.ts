import { FAIL_FAST_MS, OPTIONS_WAIT_MS } from '../core/limits';

export interface OptionInfo {
  index: number;
  value: string;
  label: string;
}

/** The option the model means: exact label or value first, then case-insensitive, then one unique partial label. */
export function matchOption<T extends OptionInfo>(options: readonly T[], wanted: string): T | undefined {
  const want = normalize(wanted);
  const real = options.filter(o => o.value !== '' || normalize(o.label) === want);
  const passes: Array<(o: T) => boolean> = [
    o => o.label.trim() === wanted.trim(),
    o => o.value === wanted,
    o => normalize(o.label) === want,
    o => normalize(o.value) === want,
  ];
  for (const pass of passes) {
    const found = real.find(pass);
    if (found) return found;
  }
  const partial = real.filter(o => normalize(o.label).includes(want));
  return partial.length === 1 ? partial[0] : undefined;
}

/** A list that has options and stopped changing will not grow the wanted one. */
const STABLE_MS = FAIL_FAST_MS;

/**
 * When to stop waiting for an option: an empty or disabled list may still be loading (up to the
 * full wait); a list of options that has not changed for about a second is final.
 */
export class OptionsSettled {
  private readonly deadline = Date.now() + OPTIONS_WAIT_MS;
  private signature = '';
  private since = Date.now();

  isOver(loaded: readonly string[]): boolean {
    const now = Date.now();
    if (now >= this.deadline) return true;
    const signature = loaded.join('\n');
    if (signature !== this.signature) {
      this.signature = signature;
      this.since = now;
      return false;
    }
    return loaded.length > 0 && now - this.since >= STABLE_MS;
  }
}

/** A short list is shown whole, in page order; a long one by the options closest to what was asked for. */
const SHOW_ALL_UP_TO = 10;
const CLOSEST = 5;

export function missingOptionText(wanted: string, labels: readonly string[], label: string): string {
  const options = labels.map(l => l.trim()).filter(Boolean);
  if (options.length <= SHOW_ALL_UP_TO) return `No option ${JSON.stringify(wanted)} in ${label}; its options are ${quoteList(options)}`;
  return `No option ${JSON.stringify(wanted)} in ${label}; the closest of its ${options.length} options are ${quoteList(closestOptions(options, wanted, CLOSEST))}`;
}

export function quoteList(items: readonly string[]): string {
  return items.map(item => JSON.stringify(item.trim())).join(', ');
}

/** Options ranked by how close they are to the wanted text: containment, shared words, then edit distance. */
export function closestOptions(labels: readonly string[], wanted: string, max: number): string[] {
  const want = normalize(wanted);
  return labels
    .map((label, index) => ({ label, index, score: similarity(normalize(label), want) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .map(o => o.label);
}

function similarity(option: string, wanted: string): number {
  if (!option || !wanted) return 0;
  const contained =
    option.includes(wanted) || wanted.includes(option)
      ? 0.8 + 0.2 * (Math.min(option.length, wanted.length) / Math.max(option.length, wanted.length))
      : 0;
  const optionWords = new Set(option.split(' '));
  const wantedWords = wanted.split(' ');
  const shared = wantedWords.filter(w => optionWords.has(w)).length / Math.max(wantedWords.length, optionWords.size);
  const edits = 1 - editDistance(option, wanted) / Math.max(option.length, wanted.length);
  return Math.max(contained, 0.7 * shared + 0.3 * edits, edits);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
