import type { ClickableFact, ControlFact, PageMetrics, RangeFact, ScrollerFact, SublistFact, ToggleFact } from './page-metrics';
import type { ElementIds } from './element-ids';
import type { Box } from './types';

/**
 * Runs in the page (see evaluateInPage for how it gets there). Reads only: no focus, scroll, hover or change to the
 * DOM (the identities it gives clickables live in a WeakMap on the window, element-ids.ts).
 */
export function collectPageMetrics(options: {
  maxClickables: number;
  noiseWords: string[];
  interactiveRoles: string[];
  stateWords: string[];
  listenersKey: string;
  elementIdsKey: string;
  maxScrollers: number;
  oneLinePx: number;
}): PageMetrics {
  const viewportWidth = window.innerWidth;
  const viewportHeight = window.innerHeight;
  const noise = new Set(options.noiseWords);
  const roots: Array<{ root: Document | ShadowRoot; prefix: string }> = [{ root: document, prefix: '' }];
  const controls: ControlFact[] = [];
  const clickables: ClickableFact[] = [];
  const sublists: SublistFact[] = [];
  const ranges: RangeFact[] = [];
  const toggles: ToggleFact[] = [];
  const scrollers: ScrollerFact[] = [];
  let totalElements = 0;
  let canvasArea = 0;
  let unnamedImageArea = 0;
  let svgOnlyIcons = 0;
  let region: { left: number; top: number; right: number; bottom: number } | undefined;
  const labeledHostSelector =
    'a,button,summary,label,[role=button],[role=link],[role=tab],[role=menuitem],[role=checkbox],[role=switch],[role=option]';
  const interactiveRoles = new Set(options.interactiveRoles);
  const nativeClickable = new Set(['a', 'button', 'summary', 'select', 'input', 'textarea']);
  const hasWords = /[\p{L}\p{N}]/u;
  const stateWords = new Set(options.stateWords);
  const VIEWPORT_RESERVE = 100;
  // Elements the page gave a click-like listener (addEventListener, seen by an init script when one is installed).
  const listened = (window as unknown as Record<symbol, WeakSet<Element> | undefined>)[Symbol.for(options.listenersKey)];
  const idsKey = Symbol.for(options.elementIdsKey);
  let ids = (window as unknown as Record<symbol, ElementIds | undefined>)[idsKey];
  if (!ids) {
    ids = { document: Math.random().toString(36).slice(2, 10), next: 1, of: new WeakMap() };
    Object.defineProperty(window, idsKey, { value: ids });
  }
  const elementIds = ids;
  function elementId(element: Element): string {
    let id = elementIds.of.get(element);
    if (!id) elementIds.of.set(element, (id = `${elementIds.document}:${elementIds.next++}`));
    return id;
  }
  // One or two marks that are a control's whole face ("+", "−", "×", "‹", "…"); separators are not controls.
  const isGlyph = (text: string) => /^[^\p{L}\p{N}\s|·•/,;:]{1,2}$/u.test(text);

  function areaInViewport(element: Element): number {
    const rect = element.getBoundingClientRect();
    const width = Math.min(rect.right, viewportWidth) - Math.max(rect.left, 0);
    const height = Math.min(rect.bottom, viewportHeight) - Math.max(rect.top, 0);
    return width > 0 && height > 0 ? width * height : 0;
  }

  // What only pixels show grows one region: the part of the viewport a screenshot of it needs.
  function addToPixelRegion(element: Element): void {
    const rect = element.getBoundingClientRect();
    const left = Math.max(rect.left, 0);
    const top = Math.max(rect.top, 0);
    const right = Math.min(rect.right, viewportWidth);
    const bottom = Math.min(rect.bottom, viewportHeight);
    if (right <= left || bottom <= top) return;
    region = region
      ? {
          left: Math.min(region.left, left),
          top: Math.min(region.top, top),
          right: Math.max(region.right, right),
          bottom: Math.max(region.bottom, bottom),
        }
      : { left, top, right, bottom };
  }

  // A loaded picture big enough to hold words, with no text alternative of its own or from the control around it:
  // whatever it shows (text set as an image, a scanned page, a photo the task asks about) is not in the tree.
  function isUnnamedPicture(image: HTMLImageElement): boolean {
    if (!image.complete || image.naturalWidth === 0 || image.width < 64 || image.height < 24) return false;
    // alt="" is the author saying the picture is decoration; any text alternative means the tree has its words.
    if (['alt', 'aria-label', 'aria-labelledby', 'title'].some(name => image.getAttribute(name)?.trim()) || image.getAttribute('alt') === '')
      return false;
    const host = image.parentElement?.closest(labeledHostSelector);
    return !(host && (host.getAttribute('aria-label') || host.textContent?.trim()));
  }

  function roundedBox(element: Element): Box {
    const rect = element.getBoundingClientRect();
    return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
  }

  function cssEscape(value: string): string {
    return typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(value) : value.replace(/[^\w-]/g, c => `\\${c}`);
  }

  function cssPath(element: Element, prefix: string): string {
    const parts: string[] = [];
    for (let current: Element | null = element; current; current = current.parentElement) {
      const id: string = current.id;
      if (id && /^[A-Za-z][\w-]*$/.test(id) && (current.getRootNode() as Document | ShadowRoot).getElementById(id) === current) {
        parts.unshift(`#${cssEscape(id)}`);
        break;
      }
      const parent: Element | null = current.parentElement;
      if (!parent) {
        parts.unshift(current.localName);
        break;
      }
      let index = 1;
      for (let sibling = current.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.localName === current.localName) index++;
      }
      parts.unshift(`${current.localName}:nth-of-type(${index})`);
    }
    const path = parts.join(' > ');
    return prefix ? `${prefix} ${path}` : path;
  }

  function ownLabel(element: Element): string | undefined {
    const direct =
      element.getAttribute('aria-label') ||
      element.getAttribute('title') ||
      element.getAttribute('alt') ||
      element.getAttribute('data-tooltip') ||
      element.getAttribute('data-title');
    if (direct && direct.trim()) return direct.trim();
    const inner = element.querySelector('[aria-label],[title],img[alt],svg title,use');
    if (!inner) return undefined;
    if (inner.localName === 'title') return inner.textContent?.trim() || undefined;
    if (inner.localName === 'use') {
      const href = inner.getAttribute('href') || inner.getAttribute('xlink:href') || '';
      return href.includes('#') ? href.slice(href.indexOf('#') + 1) : undefined;
    }
    return (inner.getAttribute('aria-label') || inner.getAttribute('title') || inner.getAttribute('alt') || '').trim() || undefined;
  }

  /** A picture says what it shows by its file name more often than by its layout classes. */
  function imageWords(element: Element): string | undefined {
    const image = element.localName === 'img' ? element : element.querySelector('img');
    if (!image) return undefined;
    const source = image.getAttribute('src') ?? '';
    const file = (source.startsWith('data:') ? '' : (source.split(/[?#]/)[0]?.split('/').pop() ?? '')).replace(/\.[a-z0-9]{2,5}$/i, '');
    let name = file;
    try {
      name = decodeURIComponent(file);
    } catch {
      // a malformed escape: the raw name still reads
    }
    const words = name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(word => word.length >= 2 && !/\d{3,}|^[a-f0-9]{8,}$/.test(word) && !/^\d+x\d+$/.test(word));
    return words.length ? `image ${words.slice(0, 5).join(' ')}` : 'image';
  }

  /** Class words of the element and its icon: `action-reply` → "action reply"; BEM parts split (`toolbar__btn--reply`). */
  function classWords(element: Element): string[] {
    const words: string[] = [];
    const add = (token: string) => {
      // A CSS-module name keeps its readable part (`ReplyButton_root__x7Yq2` → "reply button root").
      const module = /^([A-Za-z][A-Za-z-]*)_([A-Za-z][A-Za-z-]*)__[\w-]{4,}$/.exec(token);
      const readable = module ? `${module[1]}-${module[2]}` : token;
      // Other generated names (hashes) say nothing.
      if (!readable || /\d{2,}|[A-Z].*[A-Z].*\d|^_|___/.test(readable)) return;
      for (const word of readable
        .replace(/([a-z])([A-Z])/g, '$1-$2')
        .toLowerCase()
        .split(/[-_:]+/)) {
        if (word.length >= 2 && !noise.has(word) && !/\d/.test(word) && !words.includes(word)) words.push(word);
      }
    };
    const elements = [element, ...Array.from(element.querySelectorAll('*')).slice(0, 6)];
    for (const current of elements) {
      const className = typeof current.className === 'string' ? current.className : (current.getAttribute('class') ?? '');
      for (const token of className.split(/\s+/)) add(token);
      // Test ids and action names are the page's own words for a control too.
      for (const name of ['data-icon', 'data-testid', 'data-test', 'data-qa', 'data-action']) add(current.getAttribute(name) ?? '');
    }
    return words;
  }

  /** The class word saying the control is on: a state word, or "<word>ed" beside its word ("star starred", "like liked"). */
  function stateWord(element: Element, words: readonly string[]): string | undefined {
    const elements = [element, ...Array.from(element.querySelectorAll('*')).slice(0, 6)];
    for (const current of elements) {
      const className = typeof current.className === 'string' ? current.className : (current.getAttribute('class') ?? '');
      for (const word of className.toLowerCase().split(/[\s_:-]+/)) if (stateWords.has(word)) return word;
    }
    return words.find(
      word =>
        word.length >= 5 && word.endsWith('ed') && words.some(stem => stem !== word && stem.length >= 3 && word.startsWith(stem.replace(/e$/, ''))),
    );
  }

  function iconWords(words: readonly string[], state: string | undefined): string | undefined {
    const shown = words.filter(word => word !== state);
    return shown.length ? shown.slice(0, 4).join(' ') : undefined;
  }

  /** A click-like listener, handler or href-less anchor: the element takes clicks though neither its role nor its cursor says so. */
  function takesClicksUnseen(element: Element): boolean {
    return (
      listened?.has(element) === true ||
      typeof (element as HTMLElement).onclick === 'function' ||
      (element.localName === 'a' && !element.hasAttribute('href'))
    );
  }

  /**
   * The nearest element up to `levels` above that takes clicks (a listener, a handler, or the element a pointer cursor is
   * set on, not one that inherits it): it may read which of its parts was hit.
   */
  function clickTakerAbove(element: Element, levels: number): Element | undefined {
    let current = element.parentElement;
    for (let level = 0; current && level < levels && current !== document.body; level++, current = current.parentElement) {
      if (takesClicksUnseen(current) || current.hasAttribute('onclick')) return current;
      if (getComputedStyle(current).cursor !== 'pointer') continue;
      while (current.parentElement && current.parentElement !== document.body && getComputedStyle(current.parentElement).cursor === 'pointer')
        current = current.parentElement;
      return current;
    }
    return undefined;
  }

  /** A glyph leaf ("+", "−") inside something that takes clicks: the page reads which leaf was hit. */
  function glyphInClickTaker(element: Element, text: string): boolean {
    return element.childElementCount === 0 && isGlyph(text) && clickTakerAbove(element, 3) !== undefined;
  }

  /** Its words are there for screen readers only: pushed out of its box (text-indent), or too small or clear to see. */
  function wordsHidden(style: CSSStyleDeclaration, box: Box): boolean {
    return (
      Math.abs(parseFloat(style.textIndent) || 0) >= box.width ||
      parseFloat(style.fontSize) < 2 ||
      /^rgba\(.*,\s*0\)$|^transparent$/.test(style.color)
    );
  }

  /** Drawn rather than written: a picture, a background or mask image, a ::before/::after, or a filled or bordered box. */
  function isPainted(element: Element, style: CSSStyleDeclaration): boolean {
    if (element.localName === 'svg' || element.localName === 'img') return true;
    if (style.backgroundImage !== 'none' || (style.maskImage || 'none') !== 'none' || (style.webkitMaskImage || 'none') !== 'none') return true;
    if (!/^rgba\(.*,\s*0\)$|^transparent$/.test(style.backgroundColor) || parseFloat(style.borderTopWidth) > 0) return true;
    return ['::before', '::after'].some(pseudo => !/^(none|normal|""|'')$/.test(getComputedStyle(element, pseudo).content));
  }

  /**
   * An icon among the parts of something that takes clicks — a star and a bin in a mail row the list's one listener
   * handles, a slider's knob on a track that follows the pointer, an arrow whose word is hidden behind its picture: a
   * small painted leaf with no words to read, whose pointer cursor (if any) is its holder's.
   */
  function iconInClickTaker(element: Element, style: CSSStyleDeclaration, box: Box, words: boolean): boolean {
    if (element.childElementCount > 0 && element.localName !== 'svg') return false;
    if (box.width < 8 || box.height < 8 || box.width > 64 || box.height > 64) return false;
    if (words && !wordsHidden(style, box)) return false;
    if (!isPainted(element, style)) return false;
    const taker = clickTakerAbove(element, 6);
    if (!taker) return false;
    // The icon is the face of a control around it (a glyph in a small button, the arrow of a drawn drop-down): that
    // control is the one to list. A taller item (a mail row), or a list or track the page handles, has parts.
    const around = taker.getBoundingClientRect();
    if (around.width <= 2 * box.width + 16 && around.height <= 2 * box.height + 16) return false;
    // A wordless clickable around one picture is that picture's control; a knob on a track is a part of its own.
    if (!hasWords.test(taker.textContent ?? '') && onlyLeafOf(taker) && trackPosition(element, style) === undefined) return false;
    const isControl =
      nativeClickable.has(taker.localName) || interactiveRoles.has(taker.getAttribute('role') ?? '') || taker.hasAttribute('tabindex');
    return !(isControl && around.height <= Math.max(options.oneLinePx, 2 * box.height));
  }

  function onlyLeafOf(holder: Element): boolean {
    const inside = holder.getElementsByTagName('*');
    if (inside.length > 12) return false;
    // A drawing counts as one leaf, whatever its paths.
    return (
      Array.from(inside).filter(element => element.localName === 'svg' || (element.childElementCount === 0 && !(element instanceof SVGElement)))
        .length === 1
    );
  }

  /** Boxes of the element's nearest ancestors (as boxKey strings): where it belongs, whatever its own box overlaps. */
  function holderBoxes(element: Element): string[] {
    const keys: string[] = [];
    let current = element.parentElement;
    for (let level = 0; current && level < 8 && keys.length < 4 && current !== document.body; level++, current = current.parentElement) {
      const box = roundedBox(current);
      const key = `${box.x},${box.y},${box.width},${box.height}`;
      if (box.width > 0 && box.height > 0 && key !== keys.at(-1)) keys.push(key);
    }
    return keys;
  }

  function shortText(element: Element | null): string | undefined {
    if (!element) return undefined;
    if (element.localName === 'input' || element.localName === 'textarea') {
      const placeholder = element.getAttribute('placeholder') || element.getAttribute('aria-label');
      return placeholder?.trim() || undefined;
    }
    // A neighbouring control's text names that control, not this one.
    if (nativeClickable.has(element.localName) || interactiveRoles.has(element.getAttribute('role') ?? '')) return undefined;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text && text.length <= 60 && hasWords.test(text) ? text : undefined;
  }

  function nearText(element: Element): string | undefined {
    let current: Element | null = element;
    for (let level = 0; current && level < 2; level++, current = current.parentElement) {
      if (level > 0 && current.childElementCount > 3) return undefined;
      const before = [current.previousElementSibling, current.previousElementSibling?.previousElementSibling ?? null];
      const after = [current.nextElementSibling, current.nextElementSibling?.nextElementSibling ?? null];
      const [first, second] = labelsTrail(current) ? [after, before] : [before, after];
      const found = shortText(first[0] ?? null) ?? shortText(second[0] ?? null) ?? shortText(first[1] ?? null) ?? shortText(second[1] ?? null);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Twins in a row (two slider tracks, each with its readout) share the texts between them: the first twin says which
   * side each one's text is on. With nothing before it, each text follows its twin, and the text before the second
   * twin is the first one's.
   */
  function labelsTrail(element: Element): boolean {
    const parent = element.parentElement;
    if (!parent) return false;
    const kind = `${element.localName}.${element.getAttribute('class') ?? ''}`;
    const twins = Array.from(parent.children).filter(child => `${child.localName}.${child.getAttribute('class') ?? ''}` === kind);
    return twins.length > 1 && !shortText(twins[0]?.previousElementSibling ?? null) && shortText(twins[0]?.nextElementSibling ?? null) !== undefined;
  }

  function trackPosition(element: Element, style: CSSStyleDeclaration): number | undefined {
    if (style.position !== 'absolute' && style.position !== 'relative') return undefined;
    const parent = element.parentElement;
    if (!parent) return undefined;
    const own = element.getBoundingClientRect();
    // A handle is about as wide as it is high; a long thin bar is a track itself.
    if (Math.max(own.width, own.height) > 6 * Math.min(own.width, own.height)) return undefined;
    const track = parent.getBoundingClientRect();
    if (track.width >= 3 * track.height && track.width > own.width * 2) {
      return Math.round(((own.left + own.width / 2 - track.left) / track.width) * 100);
    }
    if (track.height >= 3 * track.width && track.height > own.height * 2) {
      return Math.round(((track.bottom - (own.top + own.height / 2)) / track.height) * 100);
    }
    return undefined;
  }

  function looksClickable(element: Element, style: CSSStyleDeclaration): boolean {
    if (nativeClickable.has(element.localName) || takesClicksUnseen(element)) return true;
    const role = element.getAttribute('role');
    if (role && interactiveRoles.has(role)) return true;
    if (element.hasAttribute('onclick') || element.hasAttribute('tabindex') || element.hasAttribute('ng-click') || element.hasAttribute('@click'))
      return true;
    if (style.cursor !== 'pointer') return false;
    const parent = element.parentElement;
    return !parent || getComputedStyle(parent).cursor !== 'pointer';
  }

  /** At most `limit` elements below: anything bigger holds content of its own, and reading its text would cost the whole subtree. */
  function isSmallSubtree(element: Element, limit: number): boolean {
    let seen = 0;
    const stack: Element[] = [element];
    while (stack.length > 0) {
      const current = stack.pop() as Element;
      for (let child = current.firstElementChild; child; child = child.nextElementSibling) {
        if (++seen > limit) return false;
        stack.push(child);
      }
    }
    return true;
  }

  function inspectClickable(element: Element, prefix: string): void {
    // Past the cap, only what is in view: a long page's first controls must not starve the ones a person sees.
    if (clickables.length >= options.maxClickables + VIEWPORT_RESERVE || element.childElementCount > 6) return;
    if (clickables.length >= options.maxClickables && areaInViewport(element) === 0) return;
    if (element.localName === 'input' || element.localName === 'textarea' || element.localName === 'select') return;
    if (!isSmallSubtree(element, 12)) return;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const words = hasWords.test(text);
    if (words && text.length > 40) return;
    // Words and child elements: the snapshot has the element as a node of its own; it only needs telling that the
    // node takes clicks when nothing the snapshot reads says so (a listener, an anchor without href).
    if (words && element.childElementCount > 0 && !takesClicksUnseen(element)) return;
    // A link or button with words of its own is in the snapshot by name: only its styles would be read here.
    const named = nativeClickable.has(element.localName) && !(element.localName === 'a' && !element.hasAttribute('href'));
    if (words && (named || interactiveRoles.has(element.getAttribute('role') ?? ''))) return;
    const box = roundedBox(element);
    if (box.width <= 0 || box.height <= 0) return;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.display === 'none') return;
    if (!looksClickable(element, style) && !glyphInClickTaker(element, text) && !iconInClickTaker(element, style, box, words)) return;
    const fact: ClickableFact = {
      box,
      selector: cssPath(element, prefix),
      tag: element.localName,
      holders: holderBoxes(element),
      element: elementId(element),
    };
    if (words || isGlyph(text)) fact.text = text;
    const label = ownLabel(element);
    if (label) fact.label = label.replace(/\s+/g, ' ').slice(0, 80);
    const classes = classWords(element);
    const state = stateWord(element, classes);
    const icon =
      imageWords(element) ?? iconWords(classes, state) ?? (element.localName === 'svg' || element.localName === 'canvas' ? 'image' : undefined);
    if (icon) fact.icon = icon;
    if (state) fact.state = state;
    if (!element.getAttribute('role')) {
      for (const name of ['pressed', 'checked', 'selected'] as const) {
        const value = element.getAttribute(`aria-${name}`);
        if (value === 'true' || value === 'false') fact[name] = value === 'true';
      }
    }
    const near = nearText(element);
    if (near) fact.near = near;
    const track = trackPosition(element, style);
    if (track !== undefined && track >= 0 && track <= 100) fact.track = track;
    clickables.push(fact);
  }

  function inspectRange(element: Element): void {
    const box = roundedBox(element);
    if (box.width <= 0 || box.height <= 0) return;
    const value = (element.getAttribute('aria-valuetext') || element.getAttribute('aria-valuenow') || '').trim().slice(0, 80);
    if (!value) return;
    const fact: RangeFact = { box, value };
    for (const name of ['min', 'max'] as const) {
      const bound = element.getAttribute(`aria-value${name}`)?.trim();
      if (bound) fact[name] = bound.slice(0, 40);
    }
    ranges.push(fact);
  }

  /** Cheap size checks first: the computed style is read only for the few elements holding more than they show. */
  function inspectScroller(element: Element): void {
    if (scrollers.length >= options.maxScrollers || element === document.scrollingElement || element === document.body) return;
    const clientHeight = element.clientHeight;
    if (clientHeight <= 0 || element.scrollHeight <= clientHeight + 4) return;
    const overflow = getComputedStyle(element).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll' && overflow !== 'overlay') return;
    scrollers.push({ box: roundedBox(element), scrollTop: Math.round(element.scrollTop), clientHeight, scrollHeight: element.scrollHeight });
  }

  function inspectControl(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): void {
    const box = roundedBox(element);
    if (box.width <= 0 || box.height <= 0) return;
    const tag = element.localName as ControlFact['tag'];
    const type = tag === 'input' ? (element as HTMLInputElement).type : tag;
    const fact: ControlFact = {
      box,
      tag,
      type,
      required: element.required || element.getAttribute('aria-required') === 'true',
      readonly: (tag !== 'select' && (element as HTMLInputElement).readOnly) || element.getAttribute('aria-readonly') === 'true',
      password: type === 'password',
      multiple: tag === 'select' && (element as HTMLSelectElement).multiple,
    };
    for (const name of ['min', 'max', 'step', 'pattern'] as const) {
      const value = element.getAttribute(name);
      if (value) fact[name] = value.slice(0, 80);
    }
    const maxLength = tag === 'select' ? -1 : (element as HTMLInputElement).maxLength;
    if (maxLength > 0) fact.maxLength = maxLength;
    const value = tag === 'select' || fact.password ? '' : (element as HTMLInputElement).value;
    if (value && /^\s|\s$|\s\s/.test(value)) fact.exactValue = value.slice(0, 500);
    controls.push(fact);
  }

  for (let r = 0; r < roots.length; r++) {
    const { root, prefix } = roots[r] as { root: Document | ShadowRoot; prefix: string };
    const all = root.querySelectorAll('*');
    totalElements += all.length;
    for (let i = 0; i < all.length; i++) {
      const element = all[i] as Element;
      const shadow = element.shadowRoot;
      if (shadow) roots.push({ root: shadow, prefix: cssPath(element, prefix) });
      const tag = element.localName;
      if (tag === 'input' || tag === 'textarea' || tag === 'select') {
        inspectControl(element as HTMLInputElement);
      } else if (tag === 'canvas') {
        canvasArea += areaInViewport(element);
        addToPixelRegion(element);
      } else if (tag === 'img' && isUnnamedPicture(element as HTMLImageElement)) {
        unnamedImageArea += areaInViewport(element);
        addToPixelRegion(element);
      } else if (tag === 'svg' && !(element as SVGElement).ownerSVGElement) {
        const rect = element.getBoundingClientRect();
        const labelled =
          element.getAttribute('aria-label') ||
          element.getAttribute('aria-labelledby') ||
          element.querySelector(':scope > title')?.textContent?.trim();
        const host = element.parentElement?.closest(labeledHostSelector);
        const hostLabelled = host && (host.getAttribute('aria-label') || host.textContent?.trim());
        if (rect.width > 0 && rect.height > 0 && !labelled && !hostLabelled) {
          svgOnlyIcons++;
          addToPixelRegion(element);
        }
      } else if (
        (tag === 'li' || element.getAttribute('role') === 'treeitem') &&
        element.querySelector(':scope > ul, :scope > ol, :scope > [role=group], :scope > div > ul')
      ) {
        const list = element.querySelector(':scope > ul, :scope > ol, :scope > [role=group], :scope > div > ul') as Element;
        const listBox = list.getBoundingClientRect();
        const box = roundedBox(element);
        if (box.width > 0 && box.height > 0) sublists.push({ box, open: listBox.width > 0 && listBox.height > 0 });
      }
      if (!(element instanceof SVGElement) || tag === 'svg') inspectClickable(element, prefix);
      if (element.hasAttribute('aria-valuenow') && tag !== 'input') inspectRange(element);
      if (!(element instanceof SVGElement)) inspectScroller(element);
      const expanded = element.getAttribute('aria-expanded');
      if (expanded === 'true' || expanded === 'false' || tag === 'summary') {
        const box = roundedBox(element);
        const open = tag === 'summary' ? (element.parentElement as HTMLDetailsElement | null)?.open === true : expanded === 'true';
        if (box.width > 0 && box.height > 0) toggles.push({ box, expanded: open, summary: tag === 'summary' });
      }
    }
  }
  const scrolling = document.scrollingElement ?? document.documentElement;
  const ogTitle = document.querySelector('meta[property="og:title"]')?.getAttribute('content')?.trim();
  const h1 = document.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim();
  return {
    title: document.title.trim() || ogTitle || h1 || '',
    viewportWidth,
    viewportHeight,
    direction: getComputedStyle(document.body ?? document.documentElement).direction === 'rtl' ? 'rtl' : 'ltr',
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    scrollHeight: scrolling ? scrolling.scrollHeight : viewportHeight,
    totalElements,
    canvasShare: Math.min(1, canvasArea / Math.max(1, viewportWidth * viewportHeight)),
    unnamedImageShare: Math.min(1, unnamedImageArea / Math.max(1, viewportWidth * viewportHeight)),
    svgOnlyIcons,
    ...(region
      ? {
          pixelOnlyRegion: {
            x: Math.floor(region.left),
            y: Math.floor(region.top),
            width: Math.ceil(region.right - region.left),
            height: Math.ceil(region.bottom - region.top),
          },
        }
      : {}),
    controls,
    clickables,
    sublists,
    ranges,
    toggles,
    scrollers,
  };
}
