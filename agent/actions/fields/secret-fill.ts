import type { Locator, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

/**
 * Types a secret into a field so that no trace, report or step title can hold it.
 *
 * Playwright records every call's arguments in the trace and names test steps after them (`Fill "…"`), and its
 * DOM snapshots record each input's current value. So the value is never an argument: the page asks for it
 * through an exposed binding (binding replies are internal calls, not recorded) with a one-time token, inserts it
 * as typed text, and the field answers trace snapshots with the placeholder instead of its value.
 */
export async function fillSecret(
  locator: Locator,
  value: string,
  placeholder: string,
  options: { perKey?: boolean; timeout: number },
): Promise<void> {
  // Playwright's own fill with an empty string: actionability checks and clearing, nothing secret recorded.
  await locator.fill('', { timeout: options.timeout });
  const handoff = await handoffFor(locator.page());
  const token = handoff.offer(value);
  try {
    await locator.evaluate(
      insertFromBinding,
      { binding: handoff.binding, token, mask: placeholder, perKey: Boolean(options.perKey) },
      { timeout: options.timeout },
    );
  } finally {
    handoff.withdraw(token);
  }
}

/**
 * Whether the field holds exactly the secret, asked of the page without the value crossing either way in a
 * recorded call: the page fetches it through the same one-time handoff and answers yes or no.
 */
export async function fieldHoldsSecret(locator: Locator, value: string, timeout: number): Promise<boolean> {
  const handoff = await handoffFor(locator.page());
  const token = handoff.offer(value);
  try {
    return await locator.evaluate(compareWithBinding, { binding: handoff.binding, token }, { timeout });
  } finally {
    handoff.withdraw(token);
  }
}

/** Runs in the page. Reads the field through the native getter: the trace mask only answers snapshots. */
async function compareWithBinding(element: Element, args: { binding: string; token: string }): Promise<boolean> {
  const win = element.ownerDocument.defaultView as (Window & Record<string, unknown>) | null;
  const fetchValue = win?.[args.binding] as ((token: string) => Promise<string | null>) | undefined;
  if (typeof fetchValue !== 'function') return false;
  const expected = await fetchValue(args.token);
  const control = element instanceof HTMLLabelElement && element.control ? element.control : element;
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) {
    const proto = control instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    return Object.getOwnPropertyDescriptor(proto, 'value')?.get?.call(control) === expected;
  }
  return (control as HTMLElement).innerText === expected;
}

interface Handoff {
  binding: string;
  offer(value: string): string;
  withdraw(token: string): void;
}

const handoffs = new WeakMap<Page, Promise<Handoff>>();

/** One binding per page; each value is handed out once, to the call that holds its token. */
function handoffFor(page: Page): Promise<Handoff> {
  let handoff = handoffs.get(page);
  if (!handoff) {
    handoff = createHandoff(page);
    handoffs.set(page, handoff);
    handoff.catch(() => handoffs.delete(page));
  }
  return handoff;
}

async function createHandoff(page: Page): Promise<Handoff> {
  const pending = new Map<string, string>();
  const binding = `__bwa_secret_${randomBytes(8).toString('hex')}`;
  await page.exposeBinding(binding, (_source, token: unknown) => {
    const value = typeof token === 'string' ? pending.get(token) : undefined;
    if (typeof token === 'string') pending.delete(token);
    return value ?? null;
  });
  return {
    binding,
    offer(value) {
      const token = randomBytes(16).toString('hex');
      pending.set(token, value);
      return token;
    },
    withdraw(token) {
      pending.delete(token);
    },
  };
}

/** Runs in the page. Kept self-contained: Playwright serialises it. */
async function insertFromBinding(element: Element, args: { binding: string; token: string; mask: string; perKey: boolean }): Promise<void> {
  const doc = element.ownerDocument;
  const win = doc.defaultView as (Window & Record<string | symbol, unknown>) | null;
  if (!win) throw new Error('the field is not in a live document');
  const fetchValue = win[args.binding] as ((token: string) => Promise<string | null>) | undefined;
  if (typeof fetchValue !== 'function') throw new Error('the secret could not be handed to the page (binding missing)');
  const value = await fetchValue(args.token);
  if (typeof value !== 'string') throw new Error('the secret could not be handed to the page (token already used)');
  const control = element instanceof HTMLLabelElement && element.control ? element.control : element;
  // The same refusals as Playwright's fill, which this replaces.
  if (control instanceof HTMLInputElement) {
    const type = control.type.toLowerCase();
    if (!['', 'email', 'number', 'password', 'search', 'tel', 'text', 'url'].includes(type))
      throw new Error(`Input of type "${type}" cannot be filled`);
    if (type === 'number' && (value.trim() === '' || Number.isNaN(Number(value)))) throw new Error('Cannot type text into input[type=number]');
  }

  // Trace snapshots read `.value`: while one is being taken, this field shows the placeholder.
  const depthKey = Symbol.for('bwa.traceSnapshotDepth');
  for (const key of Object.keys(win)) {
    if (!key.startsWith('__playwright_snapshot_streamer_')) continue;
    const streamer = win[key] as { captureSnapshot?: (...a: unknown[]) => unknown; [k: symbol]: unknown } | undefined;
    if (!streamer || typeof streamer.captureSnapshot !== 'function' || streamer[depthKey]) continue;
    const capture = streamer.captureSnapshot.bind(streamer);
    streamer[depthKey] = true;
    streamer.captureSnapshot = (...a: unknown[]) => {
      win[depthKey] = ((win[depthKey] as number | undefined) ?? 0) + 1;
      try {
        return capture(...a);
      } finally {
        win[depthKey] = (win[depthKey] as number) - 1;
      }
    };
  }
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) {
    const proto = control instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    const native = Object.getOwnPropertyDescriptor(proto, 'value');
    if (native?.get && native.set && !Object.getOwnPropertyDescriptor(control, 'value')) {
      // oxlint-disable-next-line typescript/unbound-method -- the native accessors, called below with .call(this)
      const { get, set } = native;
      Object.defineProperty(control, 'value', {
        configurable: true,
        get(this: HTMLInputElement) {
          return ((win[depthKey] as number | undefined) ?? 0) > 0 ? args.mask : get.call(this);
        },
        set(this: HTMLInputElement, next: string) {
          set.call(this, next);
        },
      });
    }
  }

  (control as HTMLElement).focus();
  // One code point per key, as a keyboard sends them.
  const chunks = args.perKey ? Array.from(value) : [value];
  for (const chunk of chunks) {
    // insertText goes through the editing pipeline like typing: beforeinput/input fire, frameworks see the change.
    const inserted = doc.execCommand('insertText', false, chunk);
    if (!inserted) {
      if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)) throw new Error('the element does not accept typed text');
      control.value += chunk;
      control.dispatchEvent(new Event('input', { bubbles: true }));
      control.dispatchEvent(new Event('change', { bubbles: true }));
    }
    if (args.perKey) await new Promise(resolve => setTimeout(resolve, 20));
  }
}
