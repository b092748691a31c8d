import { expect, test } from '@playwright/test';
import { settings } from '../../../agent/settings';
import { defaultTokenBudget, describeNode, estimateTokens, promptTokenBudget } from '../../../agent/snapshot';
import { computeConfidence } from '../../../agent/snapshot/confidence';
import { formatAddress } from '../../../agent/snapshot/serialize';
import { SITE } from '../helpers/sites';

test('estimateTokens: ASCII at 3.2 chars per token, one token per non-ASCII char, rounded up', () => {
  expect(estimateTokens('')).toBe(0);
  expect(estimateTokens('a'.repeat(32))).toBe(10);
  expect(estimateTokens('a'.repeat(33))).toBe(11);
  expect(estimateTokens('日本語')).toBe(3);
  expect(estimateTokens('→ /x')).toBe(2);
});

test('token budgets follow min(16K, max(8K, 8% of the window)), 40% of it for the page', () => {
  expect(promptTokenBudget(200_000)).toBe(16_000);
  expect(promptTokenBudget(32_000)).toBe(8_000);
  expect(promptTokenBudget(1_000_000)).toBe(16_000);
  expect(defaultTokenBudget()).toBe(6_400);
  expect(defaultTokenBudget(1_000_000)).toBe(6_400);
});

test('describeNode gives the one-line role + label used in messages', () => {
  expect(describeNode({ role: 'link', name: 'linux', ref: 'e1', states: {}, inViewport: true })).toBe('link "linux"');
  expect(describeNode({ role: 'button', name: 'Follow', states: {}, inViewport: true })).toBe('button "Follow"');
  expect(describeNode({ role: 'paragraph', text: 'Hello there', states: {}, inViewport: true })).toBe('text "Hello there"');
  expect(describeNode({ role: 'button', states: {}, inViewport: true })).toBe('button');
  expect(describeNode({ role: 'textbox', placeholder: 'Email', states: {}, inViewport: true })).toBe('textbox "Email"');
});

test('confidence: clean page is 1, canvas / unnamed picture / unlabeled / svg / sparse pages are penalised, clamped to [0, 1]', () => {
  const clean = { canvasShare: 0, unnamedImageShare: 0, svgOnlyIcons: 0, totalElements: 400 };
  const counts = { interactive: 40, unlabeledInteractive: 0, semanticNodes: 80, viewportTextChars: 500, lookAlike: { count: 0, inView: 0 } };
  expect(computeConfidence(clean, counts).score).toBe(1);
  expect(computeConfidence({ ...clean, svgOnlyIcons: 4 }, counts).score).toBeCloseTo(0.92, 3);
  expect(computeConfidence(clean, { ...counts, unlabeledInteractive: 10 }).score).toBeCloseTo(0.9, 3);
  expect(computeConfidence({ ...clean, canvasShare: 0.2 }, counts).score).toBeCloseTo(0.7, 3);
  expect(computeConfidence({ ...clean, unnamedImageShare: 0.2 }, counts).score).toBeCloseTo(0.8, 3);
  expect(computeConfidence({ ...clean, unnamedImageShare: 0.9 }, counts).score).toBeCloseTo(0.4, 3);
  expect(computeConfidence(clean, { ...counts, semanticNodes: 9 }).score).toBeCloseTo(0.7, 3);
  expect(
    computeConfidence(
      { canvasShare: 1, unnamedImageShare: 1, svgOnlyIcons: 50, totalElements: 5 },
      { interactive: 1, unlabeledInteractive: 1, semanticNodes: 1, viewportTextChars: 0, lookAlike: { count: 0, inView: 0 } },
    ).score,
  ).toBe(0);
  const full = computeConfidence({ ...clean, svgOnlyIcons: 7 }, { ...counts, interactive: 10 });
  expect(full).toEqual({
    score: 0.44,
    canvasShare: 0,
    unnamedImageShare: 0,
    unlabeledInteractive: 0,
    svgOnlyIcons: 7,
    semanticNodes: 80,
    interactive: 10,
    viewportTextChars: 500,
    totalNodes: 400,
    lookAlikeControls: 0,
    controlsInView: 0,
  });
});

test('the page-state budget: AGENT_SNAPSHOT_TOKENS when set, else derived from AGENT_CONTEXT_WINDOW as docs/environment.md says', () => {
  const saved = { window: process.env.AGENT_CONTEXT_WINDOW, tokens: process.env.AGENT_SNAPSHOT_TOKENS };
  try {
    delete process.env.AGENT_SNAPSHOT_TOKENS;
    process.env.AGENT_CONTEXT_WINDOW = '32000';
    expect(settings.snapshotTokens).toBe(3200);
    process.env.AGENT_CONTEXT_WINDOW = '1000000';
    expect(settings.snapshotTokens).toBe(6400);
    // Unset: the window of AGENT_MODEL from the capability table (1M for the current Sonnet), capped the same.
    delete process.env.AGENT_CONTEXT_WINDOW;
    expect(settings.snapshotTokens).toBe(6400);
    process.env.AGENT_SNAPSHOT_TOKENS = '1500';
    expect(settings.snapshotTokens).toBe(1500);
    process.env.AGENT_SNAPSHOT_TOKENS = '150';
    expect(() => settings.snapshotTokens).toThrow('AGENT_SNAPSHOT_TOKENS must be a whole number from 200 to 200000 (got "150")');
  } finally {
    for (const [name, value] of [
      ['AGENT_CONTEXT_WINDOW', saved.window],
      ['AGENT_SNAPSHOT_TOKENS', saved.tokens],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});

test('a long address keeps its site and how its path ends; a same-site one prints as a path; tracking goes', () => {
  const article = formatAddress('https://www.news.example/politics/2019/11/20/council-approves-harbour-budget-after-long-debate/', SITE.people);
  // The ellipsis is not plain ASCII, so the shortened address is quoted like any page string.
  expect(article).toBe('"https://www.news.example/pol…-after-long-debate/"');
  expect(JSON.parse(article).length).toBeLessThanOrEqual(48);
  expect(formatAddress(`${SITE.people}/files/reports/annual/2023/annual-report-2023-final.pdf`, SITE.people)).toBe(
    '"/files/reports/annual/2023/a…port-2023-final.pdf"',
  );
  expect(formatAddress('https://shop.example/item?id=7&utm_source=mail&utm_medium=x', undefined)).toBe('https://shop.example/item?id=7');
  expect(formatAddress('https://a.example/x', undefined)).toBe('https://a.example/x');
});
