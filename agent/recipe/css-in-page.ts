/**
 * Functions that run inside the page (page.evaluate): they may only use what they are given and the DOM.
 */

/**
 * Last resort, in the page: the target as the n-th of a kind (`a.result-path` #0 — "the top search result"),
 * which holds for other samples when the model picked by position.
 */
export function nthCandidatesInPage({ target, forbidden }: { target: Element; forbidden: string[] }): Array<{ css: string; nth: number }> {
  const lowered = forbidden.map(f => f.toLowerCase()).filter(f => f.length >= 3);
  const clean = (s: string) => !lowered.some(f => s.toLowerCase().includes(f)) && !/\d{3,}|^(css|sc|jsx|emotion|svelte|tw)-/.test(s);
  const tokensOf = (el: Element) => {
    const tag = el.tagName.toLowerCase();
    return Array.from(el.classList)
      .filter(clean)
      .map(c => `${tag}.${CSS.escape(c)}`);
  };
  const out: Array<{ css: string; nth: number }> = [];
  const selectors = [...tokensOf(target)];
  for (
    let ancestor = target.parentElement, depth = 0;
    ancestor && ancestor !== document.body && depth < 3;
    ancestor = ancestor.parentElement, depth++
  )
    for (const outer of tokensOf(ancestor))
      for (const own of tokensOf(target).length ? tokensOf(target) : [target.tagName.toLowerCase()]) selectors.push(`${outer} ${own}`);
  for (const selector of selectors) {
    const all = Array.from(document.querySelectorAll(selector));
    const index = all.indexOf(target);
    if (index >= 0 && all.length > 1 && all.length <= 50 && !out.some(o => o.css === selector)) out.push({ css: selector, nth: index });
    if (out.length >= 3) break;
  }
  return out;
}
/**
 * Runs in the page: CSS selectors that match exactly the target elements, built from attributes and class
 * names that are not generated and carry no sample value, alone or under an ancestor; and "label: value"
 * layouts anchored on the label's text (Playwright's :text-is()).
 */
export function cssCandidatesInPage({
  targets,
  forbidden,
  row,
}: {
  targets: Element[];
  forbidden: string[];
  row: string[];
}): Array<{ css: string; nth?: number }> {
  const lowered = forbidden.map(f => f.toLowerCase()).filter(f => f.length >= 3);
  const rowLowered = row.map(f => f.toLowerCase()).filter(f => f.length >= 3);
  // Holding a sample value, or being a piece of one (a profile's path inside its URL), both tie a token to this sample.
  const clean = (s: string) => !lowered.some(f => s.toLowerCase().includes(f) || (s.length >= 5 && f.includes(s.toLowerCase())));
  const noRow = (s: string) => clean(s) && !rowLowered.some(f => s.toLowerCase().includes(f));
  const generated = (c: string) => /\d{3,}|^(css|sc|jsx|emotion|svelte|tw)-|^_|__[a-z0-9]{4,}$|[A-Za-z0-9]{6,}_[A-Za-z0-9]{4,}/.test(c);
  const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const ATTRIBUTES = [
    'data-testid',
    'data-test',
    'data-qa',
    'itemprop',
    'name',
    'aria-label',
    'data-field',
    'data-name',
    'data-id',
    'data-login',
    'href',
  ];
  const tokens = (el: Element): string[] => {
    const tag = el.tagName.toLowerCase();
    const out: string[] = [];
    if (el.id && !/\d{2,}|^[0-9]|[:.]/.test(el.id) && noRow(el.id)) out.push(`#${CSS.escape(el.id)}`);
    for (const attribute of ATTRIBUTES) {
      const value = el.getAttribute(attribute);
      if (value && value.length <= 60 && clean(value)) out.push(`[${attribute}=${quote(value)}]`);
    }
    const classes = Array.from(el.classList).filter(c => !generated(c) && noRow(c));
    for (const c of classes) out.push(`${tag}.${CSS.escape(c)}`);
    if (classes.length >= 2)
      out.push(
        `${tag}.${classes
          .slice(0, 2)
          .map(c => CSS.escape(c))
          .join('.')}`,
      );
    return out;
  };
  const matchesExactly = (selector: string): boolean => {
    let found: Element[];
    try {
      found = Array.from(document.querySelectorAll(selector));
    } catch {
      return false;
    }
    return found.length === targets.length && found.every((e, i) => e === targets[i]);
  };
  const first = targets[0]!;
  const own = [...tokens(first), first.tagName.toLowerCase()];
  const results: Array<{ css: string; nth?: number }> = [];
  const add = (selector: string, nth?: number) => {
    if (!results.some(r => r.css === selector) && results.length < 8) results.push(nth === undefined ? { css: selector } : { css: selector, nth });
  };
  for (const token of own) if (matchesExactly(token)) add(token);
  // Every part of the address at once first: "a source file" (`/blob/` and `.ts`) still picks one link where a doc quoting the same code is listed too.
  const parts = addressParts(first);
  if (parts.length > 1) for (const token of own) if (matchesExactly(`${token}${parts.join('')}`)) add(`${token}${parts.join('')}`);
  for (const token of own) for (const part of parts) if (matchesExactly(`${token}${part}`)) add(`${token}${part}`);
  const labelled = labelAnchored(first);
  if (labelled && targets.length === 1) add(labelled);
  if (targets.length === 1) for (const marked of markedItems(first)) add(marked.css, marked.nth);
  if (targets.length === 1) for (const anchored of rowAnchored(first)) add(anchored);
  let ancestor = first.parentElement;
  for (let depth = 0; ancestor && ancestor !== document.body && depth < 5 && results.length < 8; depth++, ancestor = ancestor.parentElement) {
    for (const outer of tokens(ancestor)) {
      for (const token of own) {
        if (matchesExactly(`${outer} ${token}`)) add(`${outer} ${token}`);
        if (matchesExactly(`${outer} > ${token}`)) add(`${outer} > ${token}`);
      }
    }
  }
  return results;

  /**
   * `li.result:has(.company:text-is("Initech")) a.name`: the item of a list that shows this sample's input
   * values (templated later). Playwright-only pseudo-classes: checked by the caller, not here.
   */
  function rowAnchored(el: Element): string[] {
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    const out: string[] = [];
    const ownTokens = tokens(el).length ? tokens(el) : [el.tagName.toLowerCase()];
    let container = el.parentElement;
    for (let depth = 0; container && container !== document.body && depth < 5 && out.length < 4; depth++, container = container.parentElement) {
      const outer = tokens(container);
      if (!outer.length) continue;
      const showing = Array.from(container.querySelectorAll('*'))
        .filter(d => d.children.length === 0 || d === el)
        .map(d => ({ d, text: norm((d as HTMLElement).innerText || d.textContent || '') }))
        .filter(({ text }) => row.includes(text));
      const anchors = [
        ...new Map(showing.map(({ d, text }) => [text, `${tokens(d)[0] ?? d.tagName.toLowerCase()}:text-is(${quote(text)})`])).values(),
      ];
      if (!anchors.length) continue;
      const has = anchors.map(a => `:has(${a})`).join('');
      for (const o of outer.slice(0, 2)) for (const t of ownTokens.slice(0, 2)) out.push(`${o}${has} ${t}`);
    }
    return out;
  }

  /** `[href*="/src/"]`, `[href*=".ts#"]`: the part of a link's address that says what kind of page it opens. */
  function addressParts(el: Element): string[] {
    const href = el.getAttribute('href');
    if (!href) return [];
    const path = href.split(/[?#]/)[0] ?? '';
    const parts = path
      .split('/')
      .filter(s => /^[a-z][a-z-]{1,20}$/i.test(s) && clean(s) && noRow(s))
      .map(s => `[href*=${quote(`/${s}/`)}]`);
    const extension = /\.([a-z0-9]{1,5})$/i.exec(path)?.[1];
    if (extension) parts.push(`[href*=${quote(`.${extension}`)}]`);
    return parts;
  }

  /**
   * `li.check:has(svg.octicon-x) a.details`: the one item of a list that carries a marker (an icon, a state
   * class) the other items do not. Offered first as "the first marked item, else the first item"
   * (`li.check:has(m) a.details, ul.checks:not(:has(m)) a.details` #0): a sample with two marked items, or
   * none (every check green), still gets one element, as a person following the same rule would pick.
   */
  function markedItems(el: Element): Array<{ css: string; nth?: number }> {
    const found: Array<{ css: string; nth?: number }> = [];
    const ownTokens = tokens(el).length ? tokens(el) : [el.tagName.toLowerCase()];
    const fragment = document.querySelector(':target');
    if (fragment?.contains(el) && fragment !== el) for (const t of ownTokens) if (matchesExactly(`:target ${t}`)) found.push({ css: `:target ${t}` });
    let container = el.parentElement;
    for (let depth = 0; container && container !== document.body && depth < 4 && found.length < 4; depth++, container = container.parentElement) {
      const outer = tokens(container);
      const markers = Array.from(container.querySelectorAll('*'))
        .filter(d => !d.contains(el) && !el.contains(d))
        .slice(0, 40)
        .flatMap(d => tokens(d).filter(t => !/^(div|span|p|a|li)$/.test(t)));
      // The element the address's #fragment points at is a marker every sample's page has.
      const target = document.querySelector(':target');
      if (target && container.contains(target) && !target.contains(el)) markers.unshift(':target');
      for (const o of outer)
        for (const m of [...new Set(markers)])
          for (const t of ownTokens) {
            const selector = `${o}:has(${m}) ${t}`;
            if (found.length >= 4 || !matchesExactly(selector)) continue;
            const list = m === ':target' ? undefined : listAround(container, t);
            const orFirst = list && `${selector}, ${list}:not(:has(${m})) ${t}`;
            if (orFirst && firstIs(orFirst, el)) found.push({ css: orFirst, nth: 0 });
            found.push({ css: selector });
          }
    }
    return found;
  }

  /** The nearest ancestor of a list item, named by a token that is unique on the page, that holds the whole list. */
  function listAround(item: Element, own: string): string | undefined {
    for (let list = item.parentElement, depth = 0; list && list !== document.body && depth < 3; list = list.parentElement, depth++) {
      if (list.querySelectorAll(own).length < 2) continue;
      const unique = tokens(list).find(token => document.querySelectorAll(token).length === 1);
      if (unique) return unique;
    }
    return undefined;
  }

  function firstIs(selector: string, el: Element): boolean {
    try {
      return document.querySelector(selector) === el;
    } catch {
      return false;
    }
  }

  /** `dt:text-is("Status") + dd`: the value sits right after a short constant label. */
  function labelAnchored(el: Element): string | undefined {
    for (let node: Element | null = el, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
      const previous = node.previousElementSibling;
      const label = previous ? ((previous as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim() : '';
      if (!previous || !label || label.length > 40 || !noRow(label) || /\d/.test(label)) continue;
      const path: string[] = [];
      for (let inner: Element | null = el; inner && inner !== node; inner = inner.parentElement) path.unshift(inner.tagName.toLowerCase());
      return `${previous.tagName.toLowerCase()}:text-is(${quote(label)}) + ${[node.tagName.toLowerCase(), ...path].join(' > ')}`;
    }
    return undefined;
  }
}
