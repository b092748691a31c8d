/**
 * Spacing a copy must keep but a reader skims over: spaces at the start or end of a value, and doubled
 * spaces inside it. The quoted value shows them; this says so in words, beside it.
 */
export function spacingNote(value: string): string | undefined {
  if (value !== '' && value.trim() === '') return `spacing: only ${spaces(value)}`;
  const leading = value.slice(0, value.length - value.trimStart().length);
  const trailing = value.slice(value.trimEnd().length);
  const parts: string[] = [];
  if (leading) parts.push(`${spaces(leading)} at the start`);
  if (trailing) parts.push(`${spaces(trailing)} at the end`);
  if (/\S[ \t\u00a0]{2,}\S/.test(value)) parts.push('doubled spaces inside');
  return parts.length ? `spacing: ${parts.join(', ')}` : undefined;
}

function spaces(run: string): string {
  const word = /^ +$/.test(run) ? 'space' : 'blank character';
  return `${run.length} ${word}${run.length === 1 ? '' : 's'}`;
}
