type Json = Record<string, unknown>;

const ID_KEYS = ['id', 'sample_id', 'url', 'href', 'sha', 'number', 'username', 'name', 'title'];

export const isPlainObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * save_progress semantics: objects recurse, arrays append, and array items that carry the same identity
 * (id, url, name, …) are merged instead of duplicated — the agent re-saving an item must not count it twice.
 */
export function deepMerge(base: Json, update: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(update)) {
    const current = out[key];
    if (Array.isArray(current) && Array.isArray(value)) out[key] = mergeArrays(current, value);
    else if (isPlainObject(current) && isPlainObject(value)) out[key] = deepMerge(current, value);
    else if (value !== undefined) out[key] = value;
  }
  return out;
}

function mergeArrays(current: unknown[], incoming: unknown[]): unknown[] {
  const out = [...current];
  for (const item of incoming) {
    const index = out.findIndex(existing => sameItem(existing, item));
    if (index === -1) out.push(item);
    else if (isPlainObject(out[index]) && isPlainObject(item)) out[index] = deepMerge(out[index] as Json, item);
  }
  return out;
}

function sameItem(a: unknown, b: unknown): boolean {
  if (!isPlainObject(a) || !isPlainObject(b)) return JSON.stringify(a) === JSON.stringify(b);
  const key = ID_KEYS.find(k => a[k] !== undefined && a[k] !== null && b[k] !== undefined && b[k] !== null);
  return key ? JSON.stringify(a[key]) === JSON.stringify(b[key]) : JSON.stringify(a) === JSON.stringify(b);
}
