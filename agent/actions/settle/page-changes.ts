import type { Locator, Page } from '@playwright/test';
import { abortable } from '../../snapshot/abort';
import { PAGE_READ_MS } from '../core/limits';
import { POINTER_TARGET_KEY } from '../targets/obstacles';
import type { SettledOutcome } from '../core/types';

/**
 * Whether anything a person could see changed while an action ran: the DOM (content, attributes), a value or a
 * toggle (input, change, toggle events), a scroll, the address, a new tab, dialog or download, the focus moving to
 * a field, or what shows around the clicked element (a menu opened by :hover or :focus-within draws no DOM change).
 * Read in every frame. A page with a canvas, video or plugin can change pixels without any of these, so there
 * nothing is ever called unchanged: `changed` is `false` only when it is certain.
 *
 * Besides: what changed that the page state's words need not show — the element acted on (its attributes, or those
 * of what it holds) and drawn pixels (a canvas drawn on): a star that turns gold by a class, a game board drawn on
 * canvases.
 */
export interface PageChangeReading {
  changed: boolean;
  /** The acted-on element or what it holds changed an attribute. */
  targetChanged: boolean;
  /** Those of its changes the page state does not print (class, style, a picture's source…), as `class "flag" → "flag flag-raised"`. */
  target?: string;
  /** A canvas on the page shows other pixels than before. */
  pixels: boolean;
  /** Only attributes or pixels changed: no text, element, value, scroll, focus or address (the page state may read the same). */
  lookOnly: boolean;
}

export interface ChangeWatch {
  /** Reads once, and stops watching. */
  read(): Promise<PageChangeReading>;
  /** Stops watching without reading (the action failed). */
  stop(): Promise<void>;
}

const WATCH_KEY = 'bwa.pageChanges';

/** A page with more frames than this (ad slots, embeds) is not watched: a click there is never called unchanged. */
const MAX_FRAMES = 8;
const CHANGED: PageChangeReading = { changed: true, targetChanged: false, pixels: false, lookOnly: false };
const UNWATCHED: ChangeWatch = { read: async () => CHANGED, stop: async () => {} };

/**
 * Watches the page from now on. The clicked element is the one the pointer check just read (readStanding leaves it
 * on its window): without it, what shows around it cannot be compared, and nothing is called unchanged. Keys go to
 * the focused element: `focused` takes that one as the element acted on.
 */
export async function watchPageChanges(page: Page, options: { focused?: boolean } = {}): Promise<ChangeWatch> {
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
  const keys = { key: WATCH_KEY, targetKey: POINTER_TARGET_KEY, focused: options.focused === true };
  const found = await Promise.all(frames.map(frame => bounded(frame.evaluate(installInPage, keys)).catch(() => undefined)));
  // Every frame watches, and the one holding the element measures what shows around it.
  const installed = !found.includes(undefined) && found.includes(true);
  const finish = (read: boolean) => {
    listen(false);
    return Promise.all(frames.map(frame => bounded(frame.evaluate(readInPage, { key: WATCH_KEY, read })).catch(() => undefined)));
  };
  return {
    async read() {
      const readings = await finish(true);
      const target = readings.find(reading => reading?.target)?.target;
      const targetChanged = readings.some(reading => reading?.targetChanged === true);
      const pixels = readings.some(reading => reading?.pixels === true);
      const samePage = !eventSeen && !page.isClosed() && page.url() === url;
      const certain = samePage && dialogsHandled && installed && !readings.includes(undefined);
      const changed = !certain || readings.some(reading => reading?.changed === true);
      const lookOnly = samePage && (target !== undefined || pixels) && readings.every(reading => reading?.structural === false);
      return { changed, targetChanged, ...(target ? { target } : {}), pixels, lookOnly };
    },
    async stop() {
      await finish(false);
    },
  };
}

/** Leaves the element an action is about to use where the next watch finds it (a pointer check does this itself). */
export async function markActedOn(locator: Locator): Promise<void> {
  await locator
    .evaluate(
      (element, key) => {
        (window as unknown as Record<symbol, Element>)[Symbol.for(key)] = element;
      },
      POINTER_TARGET_KEY,
      { timeout: PAGE_READ_MS },
    )
    .catch(() => undefined);
}

/**
 * What the page shows after the action, once it has settled: `unchanged` when nothing visible changed (a click
 * says so), or a change the page state's words may not carry — a class, a drawing — said when nothing else changed
 * (else the next page state shows it) and counted as progress either way.
 */
export async function settledOutcome(watch: ChangeWatch, unchanged: string): Promise<SettledOutcome> {
  const reading = await watch.read();
  if (!reading.changed) return { note: unchanged };
  const shownChange = reading.targetChanged ? 'target' : reading.pixels ? 'pixels' : undefined;
  if (!shownChange) return { note: '' };
  const parts = [
    reading.target ? `the element changed: ${reading.target}` : '',
    reading.pixels ? 'the drawing on the page changed (canvas pixels)' : '',
  ];
  const said = parts.filter(Boolean);
  return { note: reading.lookOnly && said.length ? ` — ${said.join('; ')}` : '', shownChange };
}

type Listened = { listenerCount?(event: string): number };

/** A hung frame must not hold the action: no answer in time counts as a change (nothing is claimed). */
function bounded<T>(promise: Promise<T>): Promise<T> {
  return abortable(promise, AbortSignal.timeout(PAGE_READ_MS));
}

interface Watch {
  changed: boolean;
  /** Something other than an attribute changed: text, elements (the page state may show that itself). */
  structural: boolean;
  /** Canvas, video, embed or object on the page: pixels can change without the DOM. */
  opaque: boolean;
  active: Element | null;
  around: Array<{ element: Element; shown: number }>;
  target: Element | null;
  /** The attributes of the element acted on and of what it holds, before the action. */
  look: string[];
  canvases: Array<{ canvas: HTMLCanvasElement; pixels: number | null }>;
  stop(): void;
}

interface FrameReading {
  changed: boolean;
  structural: boolean;
  targetChanged?: boolean;
  target?: string;
  pixels: boolean;
}

/** Runs in the page; self-contained because Playwright serialises it. True when this frame holds the element. */
function installInPage(keys: { key: string; targetKey: string; focused: boolean }): boolean {
  const left = window as unknown as Record<symbol, Element | undefined>;
  const pointed = left[Symbol.for(keys.targetKey)] ?? null;
  delete left[Symbol.for(keys.targetKey)];
  const focused = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
  const target = keys.focused ? focused : pointed;
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
    structural: false,
    opaque: [...document.querySelectorAll('canvas, video, embed, object')].some(element => element.checkVisibility?.() ?? true),
    active: document.activeElement,
    around,
    target,
    look: [],
    canvases: [],
    stop: () => {},
  };
  const lookKey = Symbol.for(`${key}.look`);
  const tools = { lookOf, pixelsOf };
  (window as unknown as Record<symbol, typeof tools>)[lookKey] = tools;
  watch.look = target ? lookOf(target) : [];
  watch.canvases = [...document.querySelectorAll('canvas')]
    .filter(canvas => canvas.checkVisibility?.() ?? true)
    .slice(0, 16)
    .map(canvas => ({ canvas, pixels: pixelsOf(canvas) }));
  const observer = new MutationObserver(records => {
    watch.changed = true;
    if (records.some(record => record.type !== 'attributes')) watch.structural = true;
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const mark = () => {
    watch.changed = true;
    watch.structural = true;
  };
  const types = ['input', 'change', 'toggle', 'scroll', 'play', 'pause', 'hashchange', 'popstate'];
  for (const type of types) window.addEventListener(type, mark, true);
  watch.stop = () => {
    observer.disconnect();
    for (const type of types) window.removeEventListener(type, mark, true);
    delete slot[symbol];
  };
  slot[symbol] = watch;
  return target !== null && target.isConnected;

  /** Attributes a person's eye can follow (class, style, src, fill…): never focus bookkeeping or ids. */
  function lookOf(element: Element): string[] {
    const UNSEEN = new Set(['tabindex', 'id', 'aria-describedby', 'aria-owns', 'aria-controls', 'aria-activedescendant']);
    const describe = (node: Element, role: string) =>
      [...node.attributes].filter(a => !UNSEEN.has(a.name)).map(a => `${role}\u0001${node.localName}\u0001${a.name}\u0001${a.value}`);
    const lines = describe(element, 'self');
    [...element.querySelectorAll('*')].slice(0, 200).forEach((inner, i) => lines.push(...describe(inner, `inner ${i}`)));
    return lines;
  }

  /** A digest of what the canvas shows (scaled to at most 200 px a side), or null when the page's canvas cannot be read. */
  function pixelsOf(canvas: HTMLCanvasElement): number | null {
    const width = Math.min(200, canvas.width);
    const height = Math.min(200, canvas.height);
    if (width === 0 || height === 0) return null;
    try {
      const probe = document.createElement('canvas');
      probe.width = width;
      probe.height = height;
      const context = probe.getContext('2d', { willReadFrequently: true });
      if (!context) return null;
      context.drawImage(canvas, 0, 0, width, height);
      const data = context.getImageData(0, 0, width, height).data;
      let hash = 2166136261;
      for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ (data[i] as number), 16777619);
      return hash;
    } catch {
      return null;
    }
  }
}

/** Runs in the page: whether anything changed (when asked), and the watch stops either way. */
function readInPage(args: { key: string; read: boolean }): FrameReading {
  const watch = (window as unknown as Record<symbol, Watch | undefined>)[Symbol.for(args.key)];
  const tools = (window as unknown as Record<symbol, { lookOf(e: Element): string[]; pixelsOf(c: HTMLCanvasElement): number | null } | undefined>)[
    Symbol.for(`${args.key}.look`)
  ];
  delete (window as unknown as Record<symbol, unknown>)[Symbol.for(`${args.key}.look`)];
  if (!watch || !tools) return { changed: true, structural: true, pixels: false };
  watch.stop();
  if (!args.read) return { changed: true, structural: true, pixels: false };
  const pixels = watch.canvases.some(({ canvas, pixels: before }) => {
    if (before === null || !canvas.isConnected) return false;
    const now = tools.pixelsOf(canvas);
    return now !== null && now !== before;
  });
  const lookNow = watch.target?.isConnected ? tools.lookOf(watch.target) : watch.look;
  const targetChanged = lookNow.join('\u0000') !== watch.look.join('\u0000');
  const shown = targetChanged && (watch.target?.checkVisibility?.() ?? true);
  const target = shown ? describeLookChange(watch.look, lookNow) : undefined;
  const reading = { structural: watch.structural, targetChanged, pixels, ...(target ? { target } : {}) };
  if (watch.changed || watch.opaque) return { changed: true, ...reading };
  const active = document.activeElement;
  if (active !== watch.active && active && (active.matches('input, textarea, select') || (active as HTMLElement).isContentEditable))
    return { changed: true, ...reading, structural: true };
  const rendered = (root: Element) => {
    let count = 0;
    for (const element of root.querySelectorAll('*')) if (element.checkVisibility?.() ?? true) count++;
    return count;
  };
  const around = watch.around.some(({ element, shown }) => !element.isConnected || rendered(element) !== shown);
  return { changed: around, ...reading, structural: around };

  /**
   * `class "flag" → "flag flag-raised"` for the element's own attributes, by attribute name for what it holds — only
   * those the page state does not print (its states, names and values it does).
   */
  function describeLookChange(before: string[], after: string[]): string | undefined {
    const PRINTED = /^(aria-.*|role|hidden|disabled|checked|selected|value|open|title|alt|href|placeholder|inert)$/;
    const parts = (line: string) => line.split('\u0001') as [string, string, string, string];
    const was = new Set(before);
    const is = new Set(after);
    const changed = [...new Set([...before.filter(line => !is.has(line)), ...after.filter(line => !was.has(line))])].filter(
      line => !PRINTED.test(parts(line)[2]),
    );
    if (changed.length === 0) return undefined;
    const own = [
      ...new Set(
        changed
          .map(parts)
          .filter(([role]) => role === 'self')
          .map(([, , name]) => name),
      ),
    ];
    const valueOf = (lines: string[], name: string) => lines.map(parts).find(([role, , attribute]) => role === 'self' && attribute === name)?.[3];
    const clip = (text: string | undefined) => (text === undefined ? '(none)' : JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text));
    const shown = own.slice(0, 2).map(name => `${name} ${clip(valueOf(before, name))} → ${clip(valueOf(after, name))}`);
    const others = [
      ...new Set(
        changed
          .map(parts)
          .filter(([role]) => role !== 'self')
          .map(([, tag, name]) => `${name} of a <${tag}> inside it`),
      ),
    ];
    return [...shown, ...others.slice(0, 2)].join('; ');
  }
}
