import type { Sample } from './samples';

const TEMPLATE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/;

/**
 * Fills {{column}} from the sample row (each value passed through `encode` when given); {{secret:NAME}} is left
 * for the action layer to resolve at the browser. A column the row lacks is an error naming the template, the
 * column and the columns there are: filling it with '' would send the agent to a wrong page or type a wrong value.
 */
export function fillTemplate(text: string, row: Readonly<Record<string, string>>, where: string, encode: (value: string) => string = v => v): string {
  return text.replace(TEMPLATE, (_whole, key: string) => {
    const value = row[key];
    if (value === undefined)
      throw new Error(
        `${where}: {{${key}}} in ${JSON.stringify(text)} is not a column of the sample (columns: ${Object.keys(row).join(', ') || 'none'})`,
      );
    return encode(value);
  });
}

export function fillTemplatesDeep<T>(value: T, row: Readonly<Record<string, string>>, where: string): T {
  if (typeof value === 'string') return fillTemplate(value, row, where) as T;
  if (Array.isArray(value)) return value.map((v, i) => fillTemplatesDeep(v, row, `${where}[${i}]`)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTemplatesDeep(v, row, `${where}.${k}`)])) as T;
  return value;
}

/** A value placed inside a URL is percent-encoded; a template that is the whole URL (e.g. "{{url}}") is used as is. */
export function fillStartUrl(startUrl: string, sample: Sample): string {
  const where = `sample ${sample.sample_id}: start_url`;
  return WHOLE_TEMPLATE.test(startUrl.trim())
    ? fillTemplate(startUrl.trim(), sample.row, where)
    : fillTemplate(startUrl, sample.row, where, encodeURIComponent);
}
