import type { Locator } from '@playwright/test';
import { isSliderLike, readControlState, type ControlState } from './control-state';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from '../core/limits';
import { waitUntilEditable } from '../targets/preflight';
import { fieldHoldsSecret, fillSecret } from './secret-fill';
import { deliverInput } from '../settle/settle';
import { withSecretsHidden } from './secret-text';
import { hasSecretPlaceholder } from '../../secrets/placeholders';
import { checkTypedText, holdsTypedValue, stateAfterHandlers } from './shown-value';
import { countShown, shownElsewhere, type ShownCount } from './taken-keys';
import { setSliderValue } from './slider';
import type { ResolvedTarget } from '../targets/target';
import { ActionError, type ActionEnv } from '../core/types';
import { conventionsOf, isTypedInput, toInputValue, VALUE_FORMAT, type Converted, type TypedInput } from '../values/value-formats';

export interface EntryOptions {
  submit?: boolean;
  slowly?: boolean;
}

/**
 * Puts a value into a field and checks that the field holds it: text as typed, dates and times in the
 * input's own format, sliders and spinners moved to the value. Returns what the action log says.
 */
export async function enterValue(
  resolved: ResolvedTarget,
  text: string,
  options: EntryOptions,
  env: Pick<ActionEnv, 'page' | 'policy' | 'signal'>,
): Promise<string> {
  const { locator, label } = resolved;
  const state = await waitUntilEditable(locator, label);
  const secret = hasSecretPlaceholder(text);
  const typedKind = isTypedInput(state.inputType) ? state.inputType : undefined;
  if (isSliderLike(state) && !secret) {
    const moved = await setSliderValue(env.page, locator, text, label, env.signal);
    if (options.submit) await deliverInput(env.page, () => locator.press('Enter', { timeout: ELEMENT_TIMEOUT_MS }));
    return `${moved}${options.submit ? ' and pressed Enter' : ''}`;
  }
  const converted = typedKind && !secret ? await convert(locator, text, typedKind, state, label) : undefined;
  const plainText = !secret && !converted && state.inputType !== 'password';
  const shownBefore = plainText ? await countShown(locator, text) : undefined;
  let outcome = '';
  await withSecretsHidden(text, locator, env.policy, async value => {
    if (secret) await fillSecret(locator, value, text, { perKey: options.slowly, timeout: ELEMENT_TIMEOUT_MS });
    else if (converted) await fillTyped(locator, converted.value, typedKind!, label);
    else if (options.slowly) {
      await locator.fill('', { timeout: ELEMENT_TIMEOUT_MS });
      await locator.pressSequentially(value, { delay: 20, timeout: ELEMENT_TIMEOUT_MS + value.length * 50 });
    } else await locator.fill(value, { timeout: ELEMENT_TIMEOUT_MS });
    outcome = await verify(locator, {
      typed: text,
      value,
      converted,
      kind: typedKind,
      secret,
      label,
      password: state.inputType === 'password',
      shownBefore,
      slowly: options.slowly === true,
    });
    if (options.submit) await deliverInput(env.page, () => locator.press('Enter', { timeout: ELEMENT_TIMEOUT_MS }));
  });
  // `text` still holds the placeholders: this is the only form that reaches the log.
  return `Typed ${JSON.stringify(text)} into ${label}${outcome}${options.submit ? ' and pressed Enter' : ''}`;
}

async function convert(locator: Locator, text: string, kind: TypedInput, state: ControlState, label: string): Promise<Converted> {
  const converted = toInputValue(text, kind, conventionsOf(state)) ?? (kind === 'color' ? await cssColor(locator, text) : undefined);
  if (!converted) throw new ActionError(`Cannot type ${JSON.stringify(text)} into ${label}: it takes ${VALUE_FORMAT[kind]}`);
  return converted;
}

/** The page's own CSS parser reads every color form (names, rgb(), hsl()); a color input holds #rrggbb. */
async function cssColor(locator: Locator, text: string): Promise<Converted | undefined> {
  const hex = await locator.evaluate(
    (_, color) => {
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return undefined;
      const sentinel = '#010203';
      context.fillStyle = sentinel;
      context.fillStyle = color;
      const parsed = String(context.fillStyle);
      return parsed === sentinel || !/^#[0-9a-f]{6}$/.test(parsed) ? undefined : parsed;
    },
    text.trim(),
    { timeout: ELEMENT_TIMEOUT_MS },
  );
  return hex ? { value: hex } : undefined;
}

async function fillTyped(locator: Locator, value: string, kind: TypedInput, label: string): Promise<void> {
  try {
    await locator.fill(value, { timeout: ELEMENT_TIMEOUT_MS });
  } catch (error) {
    if (/Malformed value|Cannot type text into/i.test(error instanceof Error ? error.message : String(error))) {
      throw new ActionError(`${label} refused ${JSON.stringify(value)}: it takes ${VALUE_FORMAT[kind]}`);
    }
    throw error;
  }
}

interface Entry {
  typed: string;
  /** The text with secrets filled in; never quoted back. */
  value: string;
  converted?: Converted;
  kind?: TypedInput;
  secret: boolean;
  password: boolean;
  label: string;
  /** How often the page around the field showed the text before typing (plain text only). */
  shownBefore?: ShownCount;
  slowly: boolean;
}

/** What the field shows now, said when it differs from what was typed; a value that did not take is an error. */
async function verify(locator: Locator, entry: Entry): Promise<string> {
  if (entry.secret) return verifySecret(locator, entry);
  const after = await stateAfterHandlers(locator);
  const invalid = after.invalid ? `; the page marks it invalid: ${JSON.stringify(after.invalid.slice(0, 160))}` : '';
  if (entry.converted && entry.kind) {
    if (!holdsTypedValue(entry.kind, entry.converted.value, after.value)) {
      throw new ActionError(
        `${entry.label} did not take ${JSON.stringify(entry.typed)}: it shows ${JSON.stringify(after.value)} (wanted ${JSON.stringify(entry.converted.value)}); it takes ${VALUE_FORMAT[entry.kind]}`,
      );
    }
    const reading = entry.converted.reading ? `, ${entry.converted.reading}` : '';
    return after.value === entry.typed ? invalid : ` — it now holds ${JSON.stringify(after.value)}${reading}${invalid}`;
  }
  if (entry.password) {
    // A password field's value is never read back: its length says whether it took.
    if (after.valueLength === entry.value.length) return invalid;
    throw new ActionError(
      `${entry.label} did not keep the text: it holds ${after.valueLength} characters, not ${entry.value.length} — the page changed or cut it`,
    );
  }
  const check = checkTypedText(entry.value, after.value, after.maxLength);
  if (!check.ok) {
    // The page took the keys and shows the text elsewhere (a console's prompt line): every key arrived.
    const line = await shownElsewhere(locator, entry.value, entry.shownBefore);
    if (line !== undefined)
      return ` ${entry.slowly ? 'key by key' : 'at once'} — the field itself shows ${JSON.stringify(after.value.slice(0, 80))} (the page takes what is typed into it); the page now shows ${JSON.stringify(line)}${invalid}`;
    throw new ActionError(`${entry.label} did not keep the text: ${check.why}`);
  }
  return check.reformatted ? ` — it now shows ${JSON.stringify(after.value.slice(0, 200))}${invalid}` : invalid;
}

/** The page compares the field with the secret itself (fieldHoldsSecret): no read returns the value. */
async function verifySecret(locator: Locator, entry: Entry): Promise<string> {
  const after = await readControlState(locator, { afterMs: HANDLERS_MS, withValue: false });
  if (await fieldHoldsSecret(locator, entry.value, ELEMENT_TIMEOUT_MS)) return '';
  const why =
    after.valueLength === 0 ? 'it is empty afterwards — the page cleared or refused it' : 'it holds something else — the page changed the text';
  throw new ActionError(`${entry.label} did not keep the secret: ${why}`);
}
