/**
 * The examples a collapsed line prints: the strings that tell most about what the region holds. A word that
 * occurs once (a file name, a person, a title) says more than one repeated down the region ("-rw-r--r--",
 * "Reply", "View") or one made mostly of digits and signs (a time, a count, permission bits). Names of what can be
 * opened or read (links, headings, controls) come first, then one of the region's own words; within each, the
 * informative ones in reading order, then the rest.
 */

export interface SampleCandidate {
  label: string;
  /** A link's, heading's or control's name, as opposed to the region's running text. */
  named: boolean;
}

/** Enough to find informative strings in a long region without reading all of it. */
export const MAX_SAMPLE_CANDIDATES = 200;
const MIN_LETTER_SHARE = 0.5;

export function chooseStubSamples(candidates: readonly SampleCandidate[], max: number): string[] {
  const counts = new Map<string, number>();
  for (const { label } of candidates) counts.set(label, (counts.get(label) ?? 0) + 1);
  const informative = (label: string) => counts.get(label) === 1 && letterShare(label) >= MIN_LETTER_SHARE;
  const pick = (named: boolean, limit: number): string[] => {
    const labels = [...new Set(candidates.filter(candidate => candidate.named === named).map(candidate => candidate.label))];
    return [...labels.filter(informative), ...labels.filter(label => !informative(label))].slice(0, limit);
  };
  const names = pick(true, max);
  const words = pick(false, max).filter(label => !names.includes(label));
  // Names say where a region leads; one of its own words (a date, a byline, a price) says what it holds.
  return names.length ? [...names, ...words.slice(0, 1)] : words;
}

function letterShare(label: string): number {
  const letters = label.match(/\p{L}/gu)?.length ?? 0;
  const visible = label.replace(/\s/g, '').length;
  return visible === 0 ? 0 : letters / visible;
}
