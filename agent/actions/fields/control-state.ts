import type { Locator } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS } from '../core/limits';

/** What a form control is and what it shows now: read before an action (can it work?) and after (did it?). */
export interface ControlState {
  tag: string;
  /** An <input>'s type ('' for other elements). */
  inputType: string;
  /** The explicit role, or the implicit one of the controls we act on. */
  role: string;
  visible: boolean;
  disabled: boolean;
  readOnly: boolean;
  /** Text can be typed into it: a text-like input, a textarea or contenteditable. */
  textEntry: boolean;
  /**
   * The value a person sees: an input's value, a contenteditable's text, a slider's aria-valuenow. Left empty
   * for a password field and when not asked for (a field may hold a secret typed earlier: a read's result is
   * recorded in traces); `valueLength` is always there.
   */
  value: string;
  valueLength: number;
  checked?: boolean;
  multiple: boolean;
  /** Labels of the selected options of a native select. */
  selected: string[];
  min?: number;
  max?: number;
  /** The step attribute as written ("any", "0.5"); undefined when absent. */
  step?: string;
  /** A text field's character limit. */
  maxLength?: number;
  valueText?: string;
  /** The field's own message when the browser considers its value invalid. */
  invalid?: string;
  lang?: string;
  /** Placeholder, title, description and label text, which may spell the expected format. */
  hint?: string;
  /** The open modal dialog (its name) that makes this field inert, when the field is outside it. */
  blockedBy?: string;
  /** A handle on a track with no role and no value of its own (a slider drawn as a bare span): its place along the track, 0–100. */
  trackPosition?: number;
}

export interface ReadOptions {
  /** Wait in the page first, for handlers that rewrite or refuse a value a moment later. */
  afterMs?: number;
  /** Return the value itself (default true). */
  withValue?: boolean;
}

export async function readControlState(locator: Locator, options: ReadOptions = {}): Promise<ControlState> {
  return locator.evaluate(probeControl, { afterMs: options.afterMs ?? 0, withValue: options.withValue ?? true }, { timeout: ELEMENT_TIMEOUT_MS });
}

export function isSliderLike(state: ControlState): boolean {
  if (state.tag === 'input') return state.inputType === 'range';
  return state.role === 'slider' || (state.role === 'spinbutton' && !state.textEntry) || state.trackPosition !== undefined;
}

/** Runs in the page; self-contained because Playwright serialises it. */
async function probeControl(node: Element, options: Required<ReadOptions>): Promise<ControlState> {
  if (options.afterMs > 0) await new Promise(resolve => setTimeout(resolve, options.afterMs));
  const isControl = (el: Element) => el.matches('input, textarea, select') || (el as HTMLElement).isContentEditable;
  const label = isControl(node) ? null : node.closest('label');
  const el = (label?.control ?? node) as HTMLElement;
  const tag = el.tagName.toLowerCase();
  const input = el instanceof HTMLInputElement ? el : undefined;
  const inputType = input ? input.type.toLowerCase() : '';
  const implicitRoles: Record<string, string> = { range: 'slider', number: 'spinbutton', checkbox: 'checkbox', radio: 'radio' };
  const role =
    el.getAttribute('role') ||
    (input ? (implicitRoles[inputType] ?? 'textbox') : tag === 'select' ? 'combobox' : tag === 'textarea' ? 'textbox' : '');
  const textTypes = ['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time', 'datetime-local', 'month', 'week', 'color'];
  const textEntry = input ? textTypes.includes(inputType) : tag === 'textarea' || el.isContentEditable;
  const numberAttr = (name: string) => {
    const raw = el.getAttribute(name);
    return raw === null || raw.trim() === '' || Number.isNaN(Number(raw)) ? undefined : Number(raw);
  };
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const describedBy = (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map(id => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
    .join(' ');
  const select = el instanceof HTMLSelectElement ? el : undefined;
  const ariaChecked = el.getAttribute('aria-checked');
  const formControl = el as HTMLInputElement;
  const validity = 'validity' in formControl && formControl.validity && !formControl.validity.valid ? formControl.validationMessage : undefined;
  let value = '';
  if (input || tag === 'textarea' || select) value = formControl.value;
  else if (el.isContentEditable) value = el.innerText;
  else if (el.hasAttribute('aria-valuenow')) value = el.getAttribute('aria-valuenow') ?? '';
  const shownValue = options.withValue && inputType !== 'password' ? value : '';
  // A bare handle: positioned inside a track at least three times as wide as tall and twice its own width.
  let trackPosition: number | undefined;
  const track = el.parentElement?.getBoundingClientRect();
  if (!role && !input && (style.position === 'absolute' || style.position === 'relative') && track && track.width >= 3 * track.height) {
    if (track.width > box.width * 2) trackPosition = Math.round(((box.left + box.width / 2 - track.left) / track.width) * 100);
  }
  const modal = [...document.querySelectorAll('dialog')].find(dialog => dialog.matches(':modal') && !dialog.contains(el));
  const inert = el.closest('[inert]');
  const dialogName = (dialog: Element) =>
    (
      dialog.getAttribute('aria-label') ||
      document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent ||
      dialog.querySelector('h1, h2, h3, h4')?.textContent ||
      ''
    )
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60);
  const blockedBy = modal ? `a dialog (${JSON.stringify(dialogName(modal))})` : inert ? 'something (a dialog, a drawer)' : undefined;
  return {
    tag,
    inputType,
    role,
    visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none',
    disabled: el.matches(':disabled') || el.closest('[aria-disabled=true]') !== null,
    readOnly: Boolean((input || tag === 'textarea') && formControl.readOnly) || el.getAttribute('aria-readonly') === 'true',
    textEntry,
    value: shownValue,
    valueLength: value.length,
    checked: input && (inputType === 'checkbox' || inputType === 'radio') ? input.checked : ariaChecked === null ? undefined : ariaChecked === 'true',
    multiple: Boolean(select?.multiple),
    selected: select ? [...select.selectedOptions].map(o => o.label || o.textContent || '') : [],
    min: input ? (input.min !== '' ? Number(input.min) : inputType === 'range' ? 0 : undefined) : numberAttr('aria-valuemin'),
    max: input ? (input.max !== '' ? Number(input.max) : inputType === 'range' ? 100 : undefined) : numberAttr('aria-valuemax'),
    step: input?.getAttribute('step') ?? undefined,
    maxLength: (input || tag === 'textarea') && formControl.maxLength > 0 ? formControl.maxLength : undefined,
    valueText: el.getAttribute('aria-valuetext') ?? undefined,
    invalid: validity || undefined,
    lang: el.closest('[lang]')?.getAttribute('lang') || undefined,
    trackPosition,
    blockedBy,
    hint:
      [el.getAttribute('placeholder'), el.getAttribute('title'), describedBy, ...[...(formControl.labels ?? [])].map(l => l.textContent)]
        .filter(Boolean)
        .join(' ')
        .trim() || undefined,
  };
}
