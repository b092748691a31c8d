export const VALUE_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'list'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/** "1,234" → 1234, "1.2k" → 1200, "$3.50" → 3.5; null when there is no number in the text. */
export function parseNumber(text: string): number | null {
  const match = /(-?\d[\d,]*(?:\.\d+)?|-?\.\d+)\s*([kmb])?\b/i.exec(text);
  if (!match?.[1]) return null;
  const base = Number(match[1].replace(/,/g, ''));
  if (!Number.isFinite(base)) return null;
  const multiplier = match[2] ? (SUFFIX[match[2].toLowerCase()] ?? 1) : 1;
  return Math.round(base * multiplier * 1e6) / 1e6;
}

export function coerceValue(text: string, type: ValueType): unknown {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  switch (type) {
    case 'string':
      return trimmed;
    case 'number':
      return parseNumber(trimmed);
    case 'integer': {
      const n = parseNumber(trimmed);
      return n === null ? null : Math.round(n);
    }
    case 'boolean':
      if (/^(yes|true|on|checked|1|passed|success)$/i.test(trimmed)) return true;
      if (/^(no|false|off|unchecked|0|failed|failure)$/i.test(trimmed)) return false;
      return null;
    case 'date': {
      const iso = /\d{4}-\d{2}-\d{2}/.exec(trimmed);
      if (iso) return iso[0];
      const parsed = Date.parse(trimmed);
      return Number.isNaN(parsed) ? null : new Date(parsed).toISOString().slice(0, 10);
    }
    case 'list':
      return text
        .split(/\n|·|•/)
        .map(s => s.trim())
        .filter(Boolean);
  }
}

export function applyPattern(text: string, pattern: string): string | null {
  const match = new RegExp(pattern, 'is').exec(text);
  if (!match) return null;
  return match[1] ?? match[0];
}
