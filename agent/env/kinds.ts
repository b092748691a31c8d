import { z } from 'zod';

/**
 * One environment variable: the zod schema its text is parsed with (unset or empty arrives as undefined), what it
 * takes (said in every error and in docs/environment.md), its default as the docs show it, and what it means.
 */
export interface EnvVariable<T = unknown> {
  readonly schema: z.ZodType<T>;
  readonly takes: string;
  readonly fallback: string;
  readonly description: string;
  /** Appended to an error after the value it takes, e.g. a sample of the JSON it wants. */
  readonly example?: string;
  /** May carry a credential: an error names what is wrong, never the value. */
  readonly sensitive?: boolean;
  /** A path the reader resolves against the user's project folder (AGENT_PROJECT_DIR). */
  readonly projectRelative?: boolean;
}

type Described = { description: string; example?: string; sensitive?: boolean };

const ON = ['1', 'true', 'on', 'yes'];
const OFF = ['0', 'false', 'off', 'no'];

/** Every switch takes the same words, in any case. */
export function onOff(fallback: boolean, about: Described): EnvVariable<boolean> {
  const word = z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum([...ON, ...OFF]))
    .transform(value => ON.includes(value));
  return {
    ...about,
    schema: word.optional().transform(value => value ?? fallback),
    takes: 'a switch: 1, 0, true, false, on, off, yes or no',
    fallback: fallback ? 'on' : 'off',
  };
}

/** What a text value (a variable, a command-line option) takes: the schema its text is checked with, and the words errors use. */
export interface TextKind<T = unknown> {
  readonly schema: z.ZodType<T>;
  readonly takes: string;
}

export function wholeNumberText(min: number, max?: number): TextKind<number> {
  let number = z.int().min(min);
  if (max !== undefined) number = number.max(max);
  return {
    schema: z
      .string()
      .trim()
      .regex(/^-?\d+$/)
      .transform(Number)
      .pipe(number),
    takes: max === undefined ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`,
  };
}

export function wholeNumber<F extends number | undefined>(
  range: { min: number; max?: number; fallback: F; fallbackText?: string },
  about: Described,
): EnvVariable<number | F> {
  const { schema, takes } = wholeNumberText(range.min, range.max);
  return {
    ...about,
    schema: schema.optional().transform((value): number | F => value ?? range.fallback),
    takes,
    fallback: range.fallbackText ?? (range.fallback === undefined ? '—' : `\`${range.fallback}\``),
  };
}

export function oneOf<const V extends readonly [string, ...string[]]>(values: V, fallback: V[number], about: Described): EnvVariable<V[number]> {
  const schema = z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(values))
    .optional()
    .transform(value => value ?? fallback);
  return { ...about, schema, takes: orList(values), fallback: `\`${fallback}\`` };
}

/** One of the values, or undefined when unset: for a default that depends on other settings (`fallbackText` says which). */
export function oneOfOrUnset<const V extends readonly [string, ...string[]]>(
  values: V,
  about: Described & { fallbackText: string },
): EnvVariable<V[number] | undefined> {
  const schema = z.string().trim().toLowerCase().pipe(z.enum(values)).optional();
  return { ...about, schema, takes: orList(values), fallback: about.fallbackText };
}

/** A comma-separated list of some of the values (none when unset). */
export function someOf<const V extends readonly [string, ...string[]]>(values: V, about: Described): EnvVariable<Array<V[number]>> {
  const schema = z
    .string()
    .transform((raw, ctx) => {
      const items = raw
        .split(',')
        .map(item => item.trim())
        .filter(Boolean);
      for (const item of items)
        if (!(values as readonly string[]).includes(item)) ctx.addIssue({ code: 'custom', message: `"${item}" is not one of them` });
      return items as Array<V[number]>;
    })
    .optional()
    .transform(value => value ?? []);
  return { ...about, schema, takes: `a comma-separated list of ${orList(values)}`, fallback: '—' };
}

export function text<F extends string | undefined>(
  fallback: F,
  about: Described & { takes?: string; fallbackText?: string; pattern?: RegExp },
): EnvVariable<string | F> {
  const schema = z
    .string()
    .trim()
    .regex(about.pattern ?? /^/)
    .optional()
    .transform((value): string | F => value ?? fallback);
  return {
    ...about,
    schema,
    takes: about.takes ?? 'text',
    fallback: about.fallbackText ?? (fallback === undefined ? '—' : `\`${fallback}\``),
  };
}

/**
 * A folder of the user's project: a relative value is resolved when read against AGENT_PROJECT_DIR (the folder of
 * the Playwright config that uses bwa), else the working directory — never against bwa's own package folder.
 */
export function folder(fallback: string, about: Described): EnvVariable<string> {
  const schema = z
    .string()
    .trim()
    .optional()
    .transform(value => value ?? fallback);
  return { ...about, schema, projectRelative: true, takes: "a folder (relative to the project's folder)", fallback: `\`${fallback}\`` };
}

export function address<F extends string | undefined>(
  protocols: readonly string[],
  fallback: F,
  about: Described & { takes?: string },
): EnvVariable<string | F> {
  const schema = z
    .string()
    .trim()
    .pipe(z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) }))
    .optional()
    .transform((value): string | F => value ?? fallback);
  return {
    ...about,
    schema,
    takes: about.takes ?? `a URL (${protocols.map(p => `${p}://`).join(', ')})`,
    fallback: fallback === undefined ? '—' : `\`${fallback}\``,
  };
}

/** A JSON object of text values; what is wrong names the key, never what it holds. */
export function jsonTextRecord(about: Described & { takes: string }): EnvVariable<Record<string, string>> {
  const schema = z
    .string()
    .transform((raw, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not valid JSON' });
        return z.NEVER;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'not an object' });
        return z.NEVER;
      }
      for (const [key, item] of Object.entries(value)) {
        if (!key) ctx.addIssue({ code: 'custom', message: 'a name is empty' });
        else if (typeof item !== 'string') ctx.addIssue({ code: 'custom', message: `the value of "${key}" is not text` });
      }
      return value as Record<string, string>;
    })
    .optional()
    .transform(value => value ?? {});
  return { ...about, schema, fallback: '—' };
}

function orList(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
