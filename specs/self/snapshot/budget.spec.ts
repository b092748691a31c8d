import { expect, test } from '@playwright/test';
import { buildObservation, estimateTokens } from '../../../agent/snapshot';
import type { AriaJsonNode } from '../../../agent/snapshot/raw';
import { bodyLines, box, el, metrics } from './helpers';

const URL = 'http://127.0.0.1:4102/big';

/** ~10,000 nodes: 2,000 cards of heading + paragraph + link + button, one of them the needle. */
function bigPage(needleAt: number): AriaJsonNode[] {
  const cards: AriaJsonNode[] = [];
  let ref = 10;
  for (let i = 0; i < 2000; i++) {
    const y = 100 + i * 120;
    const title = i === needleAt ? 'Invoice INV-7731 Globex' : `Item ${i}`;
    cards.push(el('article', { ref: `e${ref++}`, box: box(y, 110) }, [
      el('heading', { name: title, level: 3, ref: `e${ref++}`, box: box(y) }),
      el('paragraph', { ref: `e${ref++}`, text: `Description of item number ${i} with a few words`, box: box(y + 25) }),
      el('link', { name: `open ${i}`, ref: `e${ref++}`, url: `/item/${i}`, box: box(y + 50) }),
    ]));
  }
  return [el('main', { ref: 'e1', box: box(0, 250_000) }, cards)];
}

function refNumbers(lines: string[]): number[] {
  return lines.map((line) => /\[e(\d+)\]/.exec(line)?.[1]).filter((n): n is string => !!n).map(Number);
}

test('a keyword match survives in a 10,000-node page, the budget holds, and document order is kept', () => {
  const json = bigPage(1733);
  const observation = buildObservation(json, metrics({ scrollHeight: 250_000 }), URL, { keywords: ['INV-7731'], tokenBudget: 2000 });
  expect(observation.stats.rawNodes).toBeGreaterThanOrEqual(8000);
  expect(observation.text).toContain('heading "Invoice INV-7731 Globex" (level 3)');
  expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(2000);
  expect(estimateTokens(observation.text)).toBe(observation.stats.estimatedTokens);
  const numbers = refNumbers(bodyLines(observation.text));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  expect(observation.text).toMatch(/\d+ trimmed to fit the token budget/);
});

test('links and buttons outrank plain text when the budget bites, even below the fold', () => {
  const json = bigPage(-1);
  const observation = buildObservation(json, metrics(), URL, { tokenBudget: 2500 });
  const lines = bodyLines(observation.text);
  const links = lines.filter((line) => line.includes('] link "open'));
  const texts = lines.filter((line) => line.includes('] text "Description'));
  expect(links.length).toBeGreaterThan(texts.length);
  const lastTextIndex = Math.max(...texts.map((line) => Number(/number (\d+)/.exec(line)?.[1])));
  const lastLinkIndex = Math.max(...links.map((line) => Number(/open (\d+)/.exec(line)?.[1])));
  expect(lastLinkIndex).toBeGreaterThan(lastTextIndex);
});

test('on-screen text is kept before off-screen text', () => {
  const paragraphs = Array.from({ length: 400 }, (_, i) => el('paragraph', { ref: `e${i + 10}`, text: `Paragraph number ${i} of the article body`, box: box(i * 30) }));
  const observation = buildObservation([el('main', { ref: 'e1', box: box(0, 12_000) }, paragraphs)], metrics(), URL, { tokenBudget: 600 });
  const kept = observation.nodes.map((node) => node.inViewport);
  expect(kept.filter(Boolean).length).toBe(30);
  expect(observation.nodes.length).toBeGreaterThan(30);
});

test('never drops dialogs, alerts, filled controls, or what mustKeep asks for, whatever the budget', () => {
  const filler = Array.from({ length: 300 }, (_, i) => el('link', { name: `filler link ${i}`, ref: `e${i + 100}`, url: `/f/${i}`, box: box(i * 20) }));
  const json = [el('main', { ref: 'e1', box: box(0, 6000) }, [
    ...filler,
    el('alert', { ref: 'e10', text: 'Card declined', box: box(5000) }),
    el('dialog', { name: 'Confirm order', ref: 'e11', box: box(5100) }),
    el('textbox', { name: 'Street', ref: 'e12', text: '1 Main St', box: box(5200) }),
    el('checkbox', { name: 'Gift wrap', ref: 'e13', checked: true, box: box(5300) }),
    el('paragraph', { ref: 'e14', text: 'Order reference 42-ZX', box: box(5400) }),
  ])];
  const observation = buildObservation(json, metrics(), URL, {
    tokenBudget: 50,
    mustKeep: (node) => node.text === 'Order reference 42-ZX',
  });
  const text = observation.text;
  for (const expected of ['[e10] alert "Card declined"', '[e11] dialog "Confirm order"', '[e12] textbox "Street" value="1 Main St"',
    '[e13] checkbox "Gift wrap" (checked)', '[e14] text "Order reference 42-ZX"']) {
    expect(text).toContain(expected);
  }
  expect(observation.nodes.length).toBeLessThan(20);
});

test('refs covers every raw ref, kept or pruned, and interactiveCount includes page chrome', () => {
  const json = [el('generic', { ref: 'e1', box: box(0, 900) }, [
    el('navigation', { ref: 'e2', box: box(0) }, [el('link', { name: 'Home', ref: 'e3', url: '/', box: box(0) })]),
    el('main', { ref: 'e4', box: box(40) }, [el('button', { name: 'Go', ref: 'e5', box: box(40) })]),
  ])];
  const observation = buildObservation(json, metrics(), URL);
  expect([...observation.refs.keys()]).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
  expect(observation.nodes.map((node) => node.ref)).toEqual(['e5']);
  expect(observation.refs.get('e3')?.landmark).toBe('navigation');
  expect(observation.interactiveCount).toBe(2);
});

test('a row enters the budget together with its link; repeated "Star" buttons rank after distinct links and headings', () => {
  const rows = Array.from({ length: 200 }, (_, i) => el('row', { ref: `e${1000 + i * 4}`, box: box(2000 + i * 20) }, [
    el('cell', { name: `INV-${i}`, ref: `e${1001 + i * 4}` }),
    el('cell', { ref: `e${1002 + i * 4}` }, [el('link', { name: 'view', ref: `e${1003 + i * 4}`, url: `/inv/${i}`, box: box(2000 + i * 20) })]),
  ]));
  const cards = Array.from({ length: 100 }, (_, i) => el('article', { ref: `e${3000 + i * 3}`, box: box(6000 + i * 10) }, [
    el('link', { name: `Open project ${i}`, ref: `e${3001 + i * 3}`, url: `/p/${i}`, box: box(6000 + i * 10) }),
    el('button', { name: 'Star', ref: `e${3002 + i * 3}`, box: box(6000 + i * 10) }),
  ]));
  const json = [el('main', { ref: 'e1', box: box(0, 9000) }, [...cards, el('table', { ref: 'e2', box: box(2000, 4000) }, rows)])];
  const observation = buildObservation(json, metrics(), URL, { tokenBudget: 2500 });
  const lines = bodyLines(observation.text);
  const rowLines = lines.filter((line) => line.includes('] row "INV-'));
  expect(rowLines.length).toBeGreaterThan(5);
  for (const rowLine of rowLines) {
    const next = lines[lines.indexOf(rowLine) + 1];
    expect(next).toMatch(/^ \[e\d+\] link "view" → \/inv\/\d+$/);
  }
  const stars = lines.filter((line) => line.includes('button "Star"')).length;
  const opens = lines.filter((line) => line.includes('link "Open project')).length;
  expect(opens).toBe(100);
  expect(stars).toBeLessThan(opens);
});

test('a keyword matching a thousand rows stays within a bounded prompt', () => {
  const rows = Array.from({ length: 1000 }, (_, i) => el('row', { ref: `e${100 + i * 3}`, box: box(i * 20) }, [
    el('cell', { name: `INV-${i}`, ref: `e${101 + i * 3}` }),
    el('cell', { name: 'Paid', ref: `e${102 + i * 3}` }),
  ]));
  const observation = buildObservation([el('table', { ref: 'e1', box: box(0, 20_000) }, rows)], metrics(), URL, { keywords: ['paid'], tokenBudget: 1000 });
  const kept = bodyLines(observation.text).filter((line) => line.includes('| Paid'));
  expect(kept.length).toBeGreaterThanOrEqual(150);
  expect(kept.length).toBeLessThan(1000);
  expect(observation.stats.estimatedTokens).toBeLessThan(3000);
});
