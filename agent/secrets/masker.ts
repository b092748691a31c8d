import { isDistinctive, secretPatternSource, startsToken } from './encodings';
import { placeholderPattern, secretPlaceholder } from './placeholders';

/** Shorter values are not masked: two characters occur everywhere (`bwa validate` says so about such a secret). */
export const MIN_MASKED_LENGTH = 3;

/**
 * Dotted paths of string values that are bwa's own identifiers, never data: `status`, `extracted.*.provenance.source`,
 * `**.type` (a key at any depth). A pattern covers everything under the path it names.
 */
export type IdentifierPaths = readonly string[];

type PathPattern = readonly string[];
type Path = ReadonlyArray<string | number>;

function covers(pattern: PathPattern, path: Path): boolean {
  if (pattern.length === 0) return true;
  const [head, ...rest] = pattern;
  if (head === '**') return path.some((_, i) => covers(rest, path.slice(i))) || covers(rest, []);
  if (path.length === 0) return false;
  return (head === '*' || head === String(path[0])) && covers(rest, path.slice(1));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Replaces secret values with their `{{secret:NAME}}` placeholder, by structure: in a string, each whole-token
 * occurrence in any encoding (see encodings.ts); in data, string values only — never keys, numbers, booleans or the
 * identifier paths a caller names — so masking can never make serialised data unreadable. Placeholders already there
 * stay as they are (masking twice changes nothing). Texts the task's author wrote can be kept as written (`keeping`).
 */
export class SecretMasker {
  private constructor(
    private readonly pattern: RegExp | undefined,
    /** Name and value of the secret of each named group `s<i>`. */
    private readonly secrets: ReadonlyArray<readonly [name: string, value: string, distinctive: boolean]>,
    private readonly kept: readonly string[],
  ) {}

  static of(secrets: Readonly<Record<string, string>>): SecretMasker {
    const entries = Object.entries(secrets)
      .filter(([, value]) => value.length >= MIN_MASKED_LENGTH)
      .sort((a, b) => b[1].length - a[1].length);
    if (entries.length === 0) return new SecretMasker(undefined, [], []);
    const alternatives = entries.map(([, value], i) => `(?<s${i}>${secretPatternSource(value)})`);
    // Existing placeholders first: matched as themselves, so a secret "secret" never rewrites one.
    const pattern = new RegExp([placeholderPattern().source, ...alternatives].join('|'), 'gu');
    return new SecretMasker(
      pattern,
      entries.map(([name, value]) => [name, value, isDistinctive(value)] as const),
      [],
    );
  }

  get isEmpty(): boolean {
    return this.pattern === undefined;
  }

  /**
   * The same masker, leaving every occurrence that lies inside one of these texts (the task's own words: its goal,
   * system prompt, field names) as written, when the text is longer than the occurrence — a text that is just the
   * secret keeps nothing. Their JSON-escaped forms are kept too (a prompt may quote them as JSON).
   */
  keeping(texts: readonly string[]): SecretMasker {
    const forms = texts.flatMap(text => [text, JSON.stringify(text).slice(1, -1)]).filter(text => text.trim().length > 0);
    return new SecretMasker(this.pattern, this.secrets, [...new Set([...this.kept, ...forms])]);
  }

  text(input: string): string {
    return this.mask(input).text;
  }

  /** Names of the secrets the text holds (in any encoding), outside the kept texts. */
  namesIn(input: string): string[] {
    return [...this.mask(input).names];
  }

  /** A copy of plain data with its string values masked, except at the identifier paths given. */
  value<T>(data: T, identifiers: IdentifierPaths = []): T {
    if (!this.pattern) return data;
    const patterns = identifiers.map(p => p.split('.'));
    const walk = (value: unknown, path: Path): unknown => {
      if (typeof value === 'string') return patterns.some(p => covers(p, path)) ? value : this.text(value);
      if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]));
      if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, [...path, key])]));
      return value;
    };
    return walk(data, []) as T;
  }

  private mask(input: string): { text: string; names: Set<string> } {
    const names = new Set<string>();
    if (!this.pattern || input.length < MIN_MASKED_LENGTH) return { text: input, names };
    const kept = this.keptSpans(input);
    const pattern = new RegExp(this.pattern);
    let out = '';
    let copied = 0;
    for (let match = pattern.exec(input); match; match = pattern.exec(input)) {
      const [name, value, distinctive] = this.secretOf(match.groups) ?? [];
      const at = match.index;
      const end = at + match[0].length;
      if (name === undefined || value === undefined) continue;
      // Not a token of its own here, and not distinctive enough to be the secret inside a longer one: look again from
      // the next character (a real occurrence may start inside).
      if (!distinctive && !startsToken(input, at, value)) {
        pattern.lastIndex = at + 1;
        continue;
      }
      if (kept.some(([start, stop]) => start <= at && end <= stop && stop - start > end - at)) continue;
      names.add(name);
      out += input.slice(copied, at) + secretPlaceholder(name);
      copied = end;
    }
    return { text: copied === 0 ? input : out + input.slice(copied), names };
  }

  private secretOf(groups: Record<string, string | undefined> | undefined): readonly [string, string, boolean] | undefined {
    for (const [group, text] of Object.entries(groups ?? {})) if (text !== undefined) return this.secrets[Number(group.slice(1))];
    return undefined;
  }

  private keptSpans(input: string): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    for (const text of this.kept) for (let at = input.indexOf(text); at >= 0; at = input.indexOf(text, at + 1)) spans.push([at, at + text.length]);
    return spans;
  }
}

export const noMasking = SecretMasker.of({});
