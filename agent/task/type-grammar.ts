/**
 * The grammar of a field's type in output_schema, input_schema and judgment_output_schema:
 *   a union of types   — "string | null", "integer", "array of { number, title }", "0.0-1.0";
 *   or an enumeration  — "yes | no | inconclusive" (two or more values, none of them a type).
 * A note in parentheses may follow a type ("string (ISO date)"). Lists and objects of these nest.
 */
export const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'date', 'url', 'array', 'object', 'null'] as const;
export type TypeName = (typeof TYPE_NAMES)[number];

/** A descriptor read once, the way the validator reads it: type names in any case, notes in parentheses left out. */
export interface ParsedType {
  /** The types of its alternatives: "array of …" is an array, a range ("0.0-1.0") a number. Empty for an enumeration. */
  types: ReadonlySet<TypeName>;
  /** An enumeration's allowed values ("yes | no"), as written. */
  values?: string[];
  nullable: boolean;
  range?: { min: number; max: number };
}

const RANGE = /^(-?\d+(\.\d+)?)\s*-\s*(-?\d+(\.\d+)?)$/;
const ARRAY_OF = /^array\s+of\b/i;
const NOTE = /\s*\([^()]*\)$/;

/** What is wrong with a type descriptor, or undefined; nested lists and objects are checked value by value. */
export function typeProblem(descriptor: unknown): string | undefined {
  if (Array.isArray(descriptor)) return descriptor.map(typeProblem).find(Boolean);
  if (descriptor && typeof descriptor === 'object') return Object.values(descriptor).map(typeProblem).find(Boolean);
  if (typeof descriptor !== 'string') return undefined;
  const options = alternatives(descriptor);
  if (options.some(option => option === '')) return `${JSON.stringify(descriptor)} has an empty alternative (two "|" in a row, or one at an end)`;
  const types = options.filter(isType);
  if (types.length === options.length) return undefined;
  const wrong = options.find(option => !isType(option))!;
  if (types.length) return `${JSON.stringify(descriptor)}: ${JSON.stringify(wrong)} is not a type${didYouMean(wrong)} — ${GRAMMAR}`;
  if (options.length === 1) return `${JSON.stringify(descriptor)} is not a type${didYouMean(wrong)} — ${GRAMMAR}`;
  const lookalike = options.find(option => closestType(option) !== undefined);
  if (lookalike)
    return `${JSON.stringify(descriptor)} reads as a list of allowed values, but ${JSON.stringify(lookalike)} looks like the type "${closestType(lookalike)}" — fix its spelling, or choose values that are not type names`;
  return undefined;
}

/** What a descriptor allows; a list ([…]) is an array and an object ({…}) an object, whatever they hold. */
export function parseType(descriptor: unknown): ParsedType {
  if (Array.isArray(descriptor)) return { types: new Set(['array']), nullable: false };
  if (typeof descriptor !== 'string') return { types: new Set(['object']), nullable: false };
  const options = alternatives(descriptor).map(option => option.replace(NOTE, '').trim());
  const types = options.filter(isType);
  if (types.length === 0 && options.length > 1) return { types: new Set(), values: options, nullable: false };
  const names = new Set<TypeName>(types.map(typeNameOf));
  const range = types.map(option => RANGE.exec(option)).find(Boolean);
  return { types: names, nullable: names.has('null'), ...(range ? { range: { min: Number(range[1]), max: Number(range[3]) } } : {}) };
}

/** Every type it allows (null aside) is one of these, and it allows at least one. */
export function onlyOf(parsed: ParsedType, ...names: TypeName[]): boolean {
  const allowed = [...parsed.types].filter(name => name !== 'null');
  return allowed.length > 0 && allowed.every(name => names.includes(name));
}

function typeNameOf(option: string): TypeName {
  const bare = option.toLowerCase();
  if (ARRAY_OF.test(bare)) return 'array';
  if (RANGE.test(bare)) return 'number';
  return bare as TypeName;
}

/** The descriptor split at each "|" outside brackets: "array of { status: passed | failed } | null" has two. */
function alternatives(descriptor: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const c of descriptor) {
    if ('{[('.includes(c)) depth++;
    if ('}])'.includes(c)) depth--;
    if (c === '|' && depth === 0) parts.push('');
    else parts[parts.length - 1] += c;
  }
  return parts.map(part => part.trim());
}

const GRAMMAR = `a type is ${TYPE_NAMES.slice(0, -1).join(', ')} or null, alternatives joined with " | " ("string | null"); or list the allowed values ("yes | no")`;

function isType(option: string): boolean {
  const bare = option.replace(NOTE, '').trim().toLowerCase();
  return (TYPE_NAMES as readonly string[]).includes(bare) || ARRAY_OF.test(bare) || RANGE.test(bare);
}

function didYouMean(option: string): string {
  const close = closestType(option);
  return close ? `; did you mean "${close}"?` : '';
}

/** A type name one or two typing slips away (two only for the longer names). */
function closestType(option: string): string | undefined {
  const word = option.replace(NOTE, '').trim().toLowerCase();
  for (const name of TYPE_NAMES) {
    const slips = editDistance(word, name);
    if (slips > 0 && slips <= (name.length > 5 ? 2 : 1)) return name;
  }
  return undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
