import type { Page } from '@playwright/test';
import { abortable } from '../../snapshot/abort';
import { PAGE_READ_MS } from '../core/limits';
import { POINTER_TARGET_KEY } from '../targets/obstacles';

/**
 * Whether anything a person could see changed while an action ran: the DOM (content, attributes), a value or a
 * toggle (input, change, toggle events), a scroll, the address, a new tab, dialog or download, the focus moving to
 * a field, or what shows around the clicked element (a menu opened by :hover or :focus-within draws no DOM change).
 * Read in every frame. A page with a canvas, video or plugin can change pixels without any of these, so there
 * nothing is ever called unchanged: the answer is `false` only when it is certain.
 */
export interface ChangeWatch {
  /** Reads once, and stops watching. */
  changed(): Promise<boolean>;
  /** Stops watching without reading (the action failed). */
  stop(): Promise<void>;
}

const WATCH_KEY = 'bwa.pageChanges';

/** A page with more frames than this (ad slots, embeds) is not watched: a click there is never called unchanged. */
const MAX_FRAMES = 8;
const UNWATCHED: ChangeWatch = { changed: async () => true, stop: async () => {} };

/**
 * Watches the page from now on. The clicked element is the one the pointer check just read (readStanding leaves it
 * on its window): without it, what shows around it cannot be compared, and nothing is called unchanged.
 */
export async function watchPageChanges(page: Page): Promise<ChangeWatch> {
  const frames = page.frames();
  if (frames.length > MAX_FRAMES) return UNWATCHED;
  const url = page.url();
  let eventSeen = false;
  const onEvent = () => {
    eventSeen = true;
  };
  // A new tab, a dialog, a download, a file chooser or a new document: each is something a person sees.
  // A page with no dialog listener has its dialogs dismissed by Playwright; one of ours would keep them open.
  const dialogsHandled = [page, page.context()].some(emitter => ((emitter as unknown as Listened).listenerCount?.('dialog') ?? 0) > 0);
  const listen = (on: boolean) => {
    const method = on ? 'on' : 'off';
    page[method]('popup', onEvent);
    if (dialogsHandled) page[method]('dialog', onEvent);
    page[method]('download', onEvent);
    page[method]('filechooser', onEvent);
    page[method]('framenavigated', onEvent);
  };
  listen(true);
  const keys = { key: WATCH_KEY, targetKey: POINTER_TARGET_KEY };
  const found = await Promise.all(frames.map(frame => bounded(frame.evaluate(installInPage, keys)).catch(() => undefined)));
  // Every frame watches, and the one holding the element measures what shows around it.
  const installed = !found.includes(undefined) && found.includes(true);
  const finish = (read: boolean) => {
    listen(false);
    return Promise.all(frames.map(frame => bounded(frame.evaluate(readInPage, { key: WATCH_KEY, read })).catch(() => true)));
  };
  return {
    async changed() {
      const readings = await finish(true);
      return eventSeen || !dialogsHandled || !installed || page.isClosed() || page.url() !== url || readings.some(Boolean);
    },
    async stop() {
      await finish(false);
    },
  };
}

type Listened = { listenerCount?(event: string): number };

/** A hung frame must not hold the action: no answer in time counts as a change (nothing is claimed). */
function bounded<T>(promise: Promise<T>): Promise<T> {
  return abortable(promise, AbortSignal.timeout(PAGE_READ_MS));
}

interface Watch {
  changed: boolean;
  /** Canvas, video, embed or object on the page: pixels can change without the DOM. */
  opaque: boolean;
  active: Element | null;
  around: Array<{ element: Element; shown: number }>;
  stop(): void;
}

/** Runs in the page; self-contained because Playwright serialises it. True when this frame holds the element. */
function installInPage(keys: { key: string; targetKey: string }): boolean {
  const left = window as unknown as Record<symbol, Element | undefined>;
  const target = left[Symbol.for(keys.targetKey)] ?? null;
  delete left[Symbol.for(keys.targetKey)];
  const key = keys.key;
  const slot = window as unknown as Record<symbol, Watch | undefined>;
  const symbol = Symbol.for(key);
  slot[symbol]?.stop();
  const rendered = (root: Element) => {
    let count = 0;
    for (const element of root.querySelectorAll('*')) if (element.checkVisibility?.() ?? true) count++;
    return count;
  };
  // What shows around the target (a few levels up, where :hover and :focus-within menus live), while it stays small.
  const around: Watch['around'] = [];
  for (let element = target?.parentElement ?? null, level = 0; element && level < 4; element = element.parentElement, level++) {
    if (element.getElementsByTagName('*').length > 400) break;
    around.push({ element, shown: rendered(element) });
  }
  const watch: Watch = {
    changed: false,
    opaque: [...document.querySelectorAll('canvas, video, embed, object')].some(element => element.checkVisibility?.() ?? true),
    active: document.activeElement,
    around,
    stop: () => {},
  };
  const mark = () => {
    watch.changed = true;
  };
  const observer = new MutationObserver(mark);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const types = ['input', 'change', 'toggle', 'scroll', 'play', 'pause', 'hashchange', 'popstate'];
  for (const type of types) window.addEventListener(type, mark, true);
  watch.stop = () => {
    observer.disconnect();
    for (const type of types) window.removeEventListener(type, mark, true);
    delete slot[symbol];
  };
  slot[symbol] = watch;
  return target !== null && target.isConnected;
}

/** Runs in the page: whether anything changed (when asked), and the watch stops either way. */
function readInPage(args: { key: string; read: boolean }): boolean {
  const watch = (window as unknown as Record<symbol, Watch | undefined>)[Symbol.for(args.key)];
  if (!watch) return true;
  watch.stop();
  if (!args.read || watch.changed || watch.opaque) return true;
  const active = document.activeElement;
  if (active !== watch.active && active && (active.matches('input, textarea, select') || (active as HTMLElement).isContentEditable)) return true;
  const rendered = (root: Element) => {
    let count = 0;
    for (const element of root.querySelectorAll('*')) if (element.checkVisibility?.() ?? true) count++;
    return count;
  };
  return watch.around.some(({ element, shown }) => !element.isConnected || rendered(element) !== shown);
}
