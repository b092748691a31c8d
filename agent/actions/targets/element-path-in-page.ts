/**
 * Runs in the page: `#checks > ul > li:nth-of-type(2) > a`, each step up by tag and position among same-tag
 * siblings (classes come and go with state: hover, selected, open), anchored at the nearest id that is unique
 * and not generated. Null inside a child frame (a page-level locator cannot reach it) or when not unique.
 */
export function elementPathInPage(el: Element): string | null {
  if (window.self !== window.top) return null;
  const generated = (id: string) => /\d{3,}|^[0-9:]|[:.]|^(css|sc|jsx|emotion|svelte|tw)-/.test(id);
  const steps: string[] = [];
  for (let node: Element | null = el; node && node !== document.documentElement; node = node.parentElement) {
    if (node.id && !generated(node.id) && document.querySelectorAll(`#${CSS.escape(node.id)}`).length === 1) {
      steps.unshift(`#${CSS.escape(node.id)}`);
      break;
    }
    const tag = node.tagName.toLowerCase();
    const same = node.parentElement ? Array.from(node.parentElement.children).filter(c => c.tagName === node!.tagName) : [];
    steps.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
  }
  const path = steps.join(' > ');
  try {
    const matches = document.querySelectorAll(path);
    return matches.length === 1 && matches[0] === el ? path : null;
  } catch {
    return null;
  }
}
