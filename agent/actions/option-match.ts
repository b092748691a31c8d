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

export function listOptions(labels: readonly string[], max = 15): string {
  const shown = labels.slice(0, max).map(label => JSON.stringify(label.trim()));
  return labels.length > max ? `${shown.join(', ')} … (${labels.length} in all)` : shown.join(', ');
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
