export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

export const median = (values: readonly number[]) => quantile(values, 0.5);
export const p95 = (values: readonly number[]) => quantile(values, 0.95);
export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map(r => r.map(c => (typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(1)) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map(r => String(r[i]).length)));
  const line = (r: Array<string | number>) => `| ${r.map((c, i) => String(c).padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map(w => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}
