/**
 * `{{secret:NAME}}` and `{{env:NAME}}`: the one pattern of each, for every part of bwa that resolves, recognises or
 * generalises them. A secret is masked wherever it goes; a plain setting (a sign-in user name) is typed as is.
 */

/** `{{secret:NAME}}` is read from SECRET_NAME; the prefix keeps a task from typing any variable (an API key) into a page. */
export const SECRET_ENV_PREFIX = 'SECRET_';
/** `{{env:NAME}}` is read from ENV_NAME, for the same reason. */
export const SETTING_ENV_PREFIX = 'ENV_';

export type PlaceholderKind = 'secret' | 'env';

/** A name as an environment variable takes it: letters, digits and `_`, not starting with a digit. */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME = PLACEHOLDER_NAME.source.slice(1, -1);
const PLACEHOLDER_SOURCE = `\\{\\{\\s*(secret|env):(${NAME})\\s*\\}\\}`;
/** What a person (or a page) meant as a placeholder, well formed or not: `{{secret:my-pin}}`, `{{ env : X }}`. */
const LOOKS_LIKE_ONE = /\{\{\s*(?:secret|env)\s*:[^{}]*\}\}/g;

/** A fresh global regex of every placeholder (callers may use lastIndex). */
export function placeholderPattern(): RegExp {
  return new RegExp(PLACEHOLDER_SOURCE, 'g');
}

export interface PlaceholderUse {
  kind: PlaceholderKind;
  name: string;
  /** The placeholder as written. */
  text: string;
}

export function placeholdersIn(text: string): PlaceholderUse[] {
  return [...text.matchAll(placeholderPattern())].map(match => ({ kind: match[1] as PlaceholderKind, name: match[2]!, text: match[0] }));
}

/** Names of the secrets the text uses, in order of first use. */
export function secretNamesIn(text: string): string[] {
  return [
    ...new Set(
      placeholdersIn(text)
        .filter(use => use.kind === 'secret')
        .map(use => use.name),
    ),
  ];
}

export function hasSecretPlaceholder(text: string): boolean {
  return secretNamesIn(text).length > 0;
}

export function isSecretPlaceholder(text: string): boolean {
  const uses = placeholdersIn(text);
  return uses.length === 1 && uses[0]!.kind === 'secret' && uses[0]!.text === text.trim();
}

export function secretPlaceholder(name: string): string {
  return `{{secret:${name}}}`;
}

/** Said of what is written like a placeholder but is none, wherever it is found. */
export const notAPlaceholder = (written: string): string =>
  `${written} is not a placeholder bwa knows: write {{secret:NAME}} or {{env:NAME}}, NAME being letters, digits and _`;

/** Said of a placeholder whose variable is not set. */
export const notSet = (kind: PlaceholderKind, name: string): string => `{{${kind}:${name}}} is not set: add ${variableOf(kind, name)}=… to .env`;

/** What looks like a placeholder but is none (a name with "-" or ".", an unknown kind): typed literally, it would leak a guess. */
export function malformedPlaceholders(text: string): string[] {
  const valid = new RegExp(`^${PLACEHOLDER_SOURCE}$`);
  return [...new Set((text.match(LOOKS_LIKE_ONE) ?? []).filter(candidate => !valid.test(candidate)))];
}

/** Where a placeholder's environment variable is named: `SECRET_PIN`, `ENV_USER`. */
export function variableOf(kind: PlaceholderKind, name: string): string {
  return `${kind === 'secret' ? SECRET_ENV_PREFIX : SETTING_ENV_PREFIX}${name}`;
}

export interface PlaceholderValues {
  secrets: Readonly<Record<string, string>>;
  settings: Readonly<Record<string, string>>;
}

/** The placeholders of the text that have no value, each once. */
export function unsetPlaceholders(text: string, values: PlaceholderValues): PlaceholderUse[] {
  const unset = placeholdersIn(text).filter(use => !(use.kind === 'secret' ? values.secrets : values.settings)[use.name]);
  return [...new Map(unset.map(use => [`${use.kind}:${use.name}`, use])).values()];
}

/** The placeholder could not be filled in: the message names the placeholder and the variable, never a value. */
export class PlaceholderError extends Error {
  readonly code = 'BWA_PLACEHOLDER';
}

/**
 * The text with every placeholder filled in. An unset one, or one that is malformed, throws: typing the literal
 * placeholder (or an empty string) into a page would be a wrong value that looks like a right one.
 */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  const malformed = malformedPlaceholders(text);
  if (malformed.length) throw new PlaceholderError(notAPlaceholder(malformed.join(', ')));
  return text.replace(placeholderPattern(), (_whole, kind: PlaceholderKind, name: string) => {
    const value = (kind === 'secret' ? values.secrets : values.settings)[name];
    if (value === undefined || value === '') throw new PlaceholderError(notSet(kind, name));
    return value;
  });
}
