/**
 * Which element an added clickable (`c<N>`) is. Its CSS path says where it was, and a page that redraws (a list
 * re-keyed, a post put on top, a virtual list that draws only what is in view) puts another element on that path: the
 * page state gives each such element an identity of its own, kept in a WeakMap on the page's window under this key
 * (the DOM is left untouched), and the action layer checks that the element on the path is still the one it named.
 */
export const ELEMENT_IDS_KEY = 'bwa.elementIds';

/** What sits on the window under the key: a token for the document, so identities of two documents never meet. */
export interface ElementIds {
  document: string;
  next: number;
  of: WeakMap<Element, string>;
}

/** In the page: the identity observe() gave this element (undefined when it gave none). */
export function elementIdIn(element: Element, key: string): string | undefined {
  const ids = (window as unknown as Record<symbol, ElementIds | undefined>)[Symbol.for(key)];
  return ids?.of.get(element);
}
