import { OPTIONS_WAIT_MS } from './limits';

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
const STABLE_MS = 1_000;

/**
 * When to stop waiting for an option: an empty or disabled list may still be loading (up to the
 * full wait); a list of options that has not changed for a second is final.
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

export function listOptions(labels: readonly string[], max = 15): string {
  const shown = labels.slice(0, max).map(label => JSON.stringify(label.trim()));
  return labels.length > max ? `${shown.join(', ')} … (${labels.length} in all)` : shown.join(', ');
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
