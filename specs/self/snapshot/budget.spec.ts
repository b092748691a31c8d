import { expect, test } from '@playwright/test';
import { buildObservation, estimateTokens, isInteractiveRole, type Observation } from '../../../agent/snapshot';
import { normalizeKeywords, textMatchesKeywords } from '../../../agent/snapshot/keywords';
import type { AriaJsonNode } from '../../../agent/snapshot/raw';
import { bodyLines, box, el, metrics } from './helpers';
import { SITE } from '../helpers/sites';

const URL = `${SITE.widgets}/big`;

/** ~10,000 nodes: 2,000 cards of heading + paragraph + link + button, one of them the needle. */
function bigPage(needleAt: number): AriaJsonNode[] {
  const cards: AriaJsonNode[] = [];
  let ref = 10;
  for (let i = 0; i < 2000; i++) {
    const y = 100 + i * 120;
    const title = i === needleAt ? 'Invoice INV-7731 Globex' : `Item ${i}`;
    cards.push(
      el('article', { ref: `e${ref++}`, box: box(y, 110) }, [
        el('heading', { name: title, level: 3, ref: `e${ref++}`, box: box(y) }),
        el('paragraph', { ref: `e${ref++}`, text: `Description of item number ${i} with a few words`, box: box(y + 25) }),
        el('link', { name: `open ${i}`, ref: `e${ref++}`, url: `/item/${i}`, box: box(y + 50) }),
      ]),
    );
  }
  return [el('main', { ref: 'e1', box: box(0, 250_000) }, cards)];
}

/** Every actionable ref of the page is printed, or covered by a stub whose line is printed. */
function expectEveryControlListedOrStubbed(observation: Observation): void {
  const printed = new Set([...observation.text.matchAll(/\[((?:f\d+)?[ec]\d+)\]/g)].map(match => match[1]));
  const missing = observation.outline.entries.filter(
    ({ node }) =>
      node.ref &&
      (isInteractiveRole(node.role) || node.clickable) &&
      !printed.has(node.ref) &&
      !observation.stubs.some(stub => printed.has(stub.ref) && stub.covers.has(node.ref as string)),
  );
  expect(missing.map(({ node }) => node.ref)).toEqual([]);
}

function refNumbers(lines: string[]): number[] {
  return lines
    .map(line => /\[e(\d+)\]/.exec(line)?.[1])
    .filter((n): n is string => !!n)
    .map(Number);
}

test('a keyword match survives in a 10,000-node page, the budget holds, document order is kept, and every link is listed or in a stub', () => {
  const json = bigPage(1733);
  const observation = buildObservation(json, metrics({ scrollHeight: 250_000 }), URL, { keywords: ['INV-7731'], tokenBudget: 2000 });
  expect(observation.stats.rawNodes).toBeGreaterThanOrEqual(8000);
  expect(observation.text).toContain('heading "Invoice INV-7731 Globex" (level 3)');
  expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(2000);
  expect(estimateTokens(observation.text)).toBe(observation.stats.estimatedTokens);
  const numbers = refNumbers(bodyLines(observation.text));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  expect(observation.text).toMatch(/\d+ collapsed, /);
  expectEveryControlListedOrStubbed(observation);
});

test('what is in view stays open; what is far below closes into a few stubs, not one per card', () => {
  const json = bigPage(-1);
  const observation = buildObservation(json, metrics(), URL, { tokenBudget: 2500 });
  const lines = bodyLines(observation.text);
  expect(lines.join('\n')).toContain('link "open 0" → /item/0');
  expect(lines.join('\n')).toContain('heading "Item 6" (level 3)');
  expect(observation.stubs.length).toBeLessThanOrEqual(3);
  expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(2500);
  expectEveryControlListedOrStubbed(observation);
});

test('on-screen text is kept before off-screen text', () => {
  const paragraphs = Array.from({ length: 400 }, (_, i) =>
    el('paragraph', { ref: `e${i + 10}`, text: `Paragraph number ${i} of the article body`, box: box(i * 30) }),
  );
  const observation = buildObservation([el('main', { ref: 'e1', box: box(0, 12_000) }, paragraphs)], metrics(), URL, { tokenBudget: 800 });
  const kept = observation.nodes.map(node => node.inViewport);
  expect(kept.filter(Boolean).length).toBe(30);
  expect(observation.nodes.length).toBeGreaterThan(30);
});

function pinnedPage(): AriaJsonNode[] {
  const filler = Array.from({ length: 300 }, (_, i) =>
    el('link', { name: `filler link ${i}`, ref: `e${i + 100}`, url: `/f/${i}`, box: box(i * 20) }),
  );
  return [
    el('main', { ref: 'e1', box: box(0, 6000) }, [
      ...filler,
      el('alert', { ref: 'e10', text: 'Card declined', box: box(5000) }),
      el('dialog', { name: 'Confirm order', ref: 'e11', box: box(5100) }),
      el('textbox', { name: 'Street', ref: 'e12', text: '1 Main St', box: box(5200) }),
      el('checkbox', { name: 'Gift wrap', ref: 'e13', checked: true, box: box(5300) }),
      el('paragraph', { ref: 'e14', text: 'Order reference 42-ZX', box: box(5400) }),
    ]),
  ];
}
const PINNED_LINES = [
  '[e10] alert "Card declined"',
  '[e11] dialog "Confirm order"',
  '[e12] textbox "Street" value="1 Main St"',
  '[e13] checkbox "Gift wrap" (checked)',
  '[e14] text "Order reference 42-ZX"',
];

test('dialogs, alerts, filled controls and what mustKeep asks for stay while 300 links collapse around them', () => {
  const observation = buildObservation(pinnedPage(), metrics(), URL, { tokenBudget: 300, mustKeep: node => node.text === 'Order reference 42-ZX' });
  for (const expected of PINNED_LINES) expect(observation.text).toContain(expected);
  expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(300);
  expectEveryControlListedOrStubbed(observation);
});

test('the budget is never exceeded, even when pinned lines alone would exceed it: the least important pins give way first', () => {
  const keywordRows = Array.from({ length: 400 }, (_, i) =>
    el('paragraph', { ref: `e${i + 1000}`, text: `Invoice INV-${i} was paid in full on time`, box: box(6000 + i * 20) }),
  );
  const json = [el('main', { ref: 'e1', box: box(0, 20_000) }, [...(pinnedPage()[0]?.children ?? []), ...keywordRows])];
  const observation = buildObservation(json, metrics(), URL, { tokenBudget: 400, keywords: ['invoice'] });
  expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(400);
  expect(observation.text).toContain('[e10] alert "Card declined"');
  expect(observation.text).toContain('[e11] dialog "Confirm order"');
  const shownInvoices = bodyLines(observation.text).filter(line => line.includes('text "Invoice INV-')).length;
  expect(shownInvoices).toBeLessThan(400);
  expectEveryControlListedOrStubbed(observation);
});

test('refs covers every raw ref, kept or pruned, and interactiveCount includes page chrome', () => {
  const json = [
    el('generic', { ref: 'e1', box: box(0, 900) }, [
      el('navigation', { ref: 'e2', box: box(0) }, [el('link', { name: 'Home', ref: 'e3', url: '/', box: box(0) })]),
      el('main', { ref: 'e4', box: box(40) }, [el('button', { name: 'Go', ref: 'e5', box: box(40) })]),
    ]),
  ];
  const observation = buildObservation(json, metrics(), URL);
  expect([...observation.refs.keys()]).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
  // The home link (its address is the site's front page) stays in view; the rest of the navigation is one stub.
  expect(observation.nodes.map(node => node.ref)).toEqual(['e3', 'e5']);
  expect(observation.stubs).toEqual([]);
  expect(observation.refs.get('e3')?.landmark).toBe('navigation');
  expect(observation.interactiveCount).toBe(2);
});

test('a table row and the link inside it are shown or collapsed together', () => {
  const rows = Array.from({ length: 200 }, (_, i) =>
    el('row', { ref: `e${1000 + i * 4}`, box: box(2000 + i * 20) }, [
      el('cell', { name: `INV-${i}`, ref: `e${1001 + i * 4}` }),
      el('cell', { ref: `e${1002 + i * 4}` }, [el('link', { name: 'view', ref: `e${1003 + i * 4}`, url: `/inv/${i}`, box: box(2000 + i * 20) })]),
    ]),
  );
  const json = [
    el('main', { ref: 'e1', box: box(0, 9000) }, [
      el('heading', { name: 'Invoices', level: 1, ref: 'e2', box: box(0) }),
      el('table', { ref: 'e3', box: box(2000, 4000) }, rows),
    ]),
  ];
  const observation = buildObservation(json, metrics(), URL, { tokenBudget: 1200 });
  const lines = bodyLines(observation.text);
  const rowLines = lines.filter(line => line.includes('] row "INV-'));
  expect(rowLines.length).toBeGreaterThan(5);
  for (const rowLine of rowLines) {
    const next = lines[lines.indexOf(rowLine) + 1];
    expect(next).toMatch(/^ +\[e\d+\] link "view" → \/inv\/\d+$/);
  }
  expectEveryControlListedOrStubbed(observation);
});

test('a keyword matching a thousand rows stays within the budget; the matches it cannot show are in a stub', () => {
  const rows = Array.from({ length: 1000 }, (_, i) =>
    el('row', { ref: `e${100 + i * 3}`, box: box(i * 20) }, [
      el('cell', { name: `INV-${i}`, ref: `e${101 + i * 3}` }),
      el('cell', { name: 'Paid', ref: `e${102 + i * 3}` }),
    ]),
  );
  const observation = buildObservation([el('table', { ref: 'e1', box: box(0, 20_000) }, rows)], metrics(), URL, {
    keywords: ['paid'],
    tokenBudget: 1000,
  });
  const kept = bodyLines(observation.text).filter(line => line.includes('| Paid'));
  expect(kept.length).toBeGreaterThanOrEqual(30);
  expect(kept.length).toBeLessThan(1000);
  expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(1000);
  const hidden = rows.map(row => row.ref as string).filter(ref => !observation.text.includes(`[${ref}]`));
  expect(hidden.every(ref => observation.stubs.some(stub => stub.covers.has(ref)))).toBe(true);
});

test('keywords match whole words and simple plurals: "author" is not "authorities", "date" is not "updated"', () => {
  const keywords = normalizeKeywords(['author', 'date', 'due date']);
  expect(textMatchesKeywords('The authorities updated the report', keywords)).toBe(false);
  expect(textMatchesKeywords('Authors: Ada and Grace', keywords)).toBe(true);
  expect(textMatchesKeywords("the author's note", keywords)).toBe(true);
  expect(textMatchesKeywords('Due date: March 3', keywords)).toBe(true);
  expect(textMatchesKeywords('Dates and updates', keywords)).toBe(true);
  expect(textMatchesKeywords('Candidate list', keywords)).toBe(false);
});
