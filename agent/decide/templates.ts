const TEMPLATE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Fills {{column}} from the sample row; {{secret:NAME}} is left for the action layer to resolve at the browser. */
export function fillTemplate(text: string, row: Readonly<Record<string, string>>, where: string): string {
  return text.replace(TEMPLATE, (whole, key: string) => {
    const value = row[key];
    if (value === undefined) throw new Error(`${where}: {{${key}}} is not a column of the sample (columns: ${Object.keys(row).join(', ')})`);
    return value;
  });
}

export function fillTemplatesDeep<T>(value: T, row: Readonly<Record<string, string>>, where: string): T {
  if (typeof value === 'string') return fillTemplate(value, row, where) as T;
  if (Array.isArray(value)) return value.map((v, i) => fillTemplatesDeep(v, row, `${where}[${i}]`)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTemplatesDeep(v, row, `${where}.${k}`)])) as T;
  return value;
}
