import type { Locator } from '@playwright/test';
import { readControlState, type ControlState } from './control-state';
import { HANDLERS_MS } from '../core/limits';
import { readNumber, type TypedInput } from '../values/value-formats';

export function stateAfterHandlers(locator: Locator): Promise<ControlState> {
  return readControlState(locator, { afterMs: HANDLERS_MS });
}

/** A typed input holds exactly its machine value; a browser may add seconds to a time or drop trailing zeros of a number. */
export function holdsTypedValue(kind: TypedInput, expected: string, shown: string): boolean {
  if (kind === 'number' || kind === 'range') return shown.trim() !== '' && readNumber(shown) === Number(expected);
  if (kind === 'time' || kind === 'datetime-local') return shown.replace(/:00(\.0+)?$/, '') === expected.replace(/:00$/, '');
  return shown.toLowerCase() === expected.toLowerCase();
}

export type TextCheck = { ok: true; reformatted: boolean } | { ok: false; why: string };

/**
 * Did a text field take what was typed? Fields that format as you type ("5551234567" → "(555) 123-4567"),
 * change case or complete the word inline still hold it; an empty, cut or different value does not.
 */
export function checkTypedText(typed: string, shown: string, maxLength?: number): TextCheck {
  if (shown === typed) return { ok: true, reformatted: false };
  const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (letters(shown) === letters(typed) || (letters(typed) !== '' && letters(shown).startsWith(letters(typed))))
    return { ok: true, reformatted: true };
  const typedNumber = readNumber(typed);
  if (typedNumber !== undefined && readNumber(shown) === typedNumber) return { ok: true, reformatted: true };
  if (shown === '') return { ok: false, why: 'it is empty afterwards — the page cleared or refused the text' };
  if (typed.startsWith(shown))
    return {
      ok: false,
      why: `it took only the first ${shown.length} of ${typed.length} characters${maxLength ? ` (its limit is ${maxLength})` : ''}`,
    };
  return { ok: false, why: `it now shows ${JSON.stringify(shown.slice(0, 120))} — the page changed the text` };
}
