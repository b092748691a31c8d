/**
 * Claims against the page: for each widget class issue 28 names, bwa's action (as the model would call it, with the
 * refs of one page state) and what the page shows afterwards, read from the page itself — and whether the result
 * told the truth. Then whether refs survive the page redrawing its controls, and whether every control that takes
 * clicks has one.
 */
import type { Browser, Page } from '@playwright/test';
import { dispatch } from '../../agent/actions/core/dispatch';
import type { ActionResult } from '../../agent/actions/core/types';
import { lookAt, openActionSample } from '../lib/action-sample';

const WIDGETS = 'http://127.0.0.1:4102';

interface ClaimCase {
  widget: string;
  path: string;
  /** What a person does first (opens the popup). */
  setUp?(page: Page): Promise<void>;
  /** The calls, as a model reading this page state would make them (one batch: no look between). */
  calls(text: string): Array<{ name: string; args: Record<string, unknown> }>;
  /** What the page shows afterwards, read from the page. */
  readBack(page: Page): Promise<string>;
  /** The rule the result is judged by. */
  rule: string;
  truthful(results: ActionResult[], shown: string): boolean;
}

/** The ref on the first page-state line matching the pattern, or a name that resolves to nothing (the line is missing). */
function refIn(text: string, pattern: RegExp): string {
  return pattern.exec(text)?.[1] ?? 'css=#no-such-line-in-the-page-state';
}

const ok = (results: ActionResult[]) => results.every(result => result.success);

/** A drag's result is true when it succeeded exactly if the order changed, and the place it gives is the item's place in the order shown. */
function toldPlace(results: ActionResult[], shown: string, initial: string, item: string): boolean {
  const changed = shown !== initial;
  if (ok(results) !== changed) return false;
  if (!changed) return true;
  const order = shown.replace(/^[^:]*: /, '').split(', ');
  return new RegExp(`item ${order.indexOf(item) + 1} of ${order.length}\\b`).test(results[0]?.description ?? '');
}
const said = (results: ActionResult[]) => results.map(result => (result.success ? result.description : `FAILED: ${result.error}`)).join(' / ');
const text = (page: Page, selector: string) => page.locator(selector).innerText();

const CLAIMS: ClaimCase[] = [
  {
    widget: 'popup calendar (header redrawn)',
    path: '/calendar-popup',
    setUp: page => page.locator('#depart').click(),
    calls: state =>
      Array.from({ length: 3 }, () => ({ name: 'click', args: { target: refIn(state, /\[((?:f\d+)?[ec]\d+)\] (?:clickable|text) "Prev"/) } })),
    readBack: page => text(page, '.cal-title'),
    rule: 'all 3 clicks land (the month moves 3); a failure would be false: Prev is there',
    truthful: (results, shown) => ok(results) && /September/.test(shown),
  },
  {
    widget: 'drop-down over a clipped native select',
    path: '/hidden-select',
    calls: state => [{ name: 'select_option', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] combobox "Country"/), value: 'Germany' } }],
    readBack: page => text(page, '#result'),
    rule: 'success exactly when the drop-down the page shows says it',
    truthful: (results, shown) => ok(results) === /Summary: Germany/.test(shown),
  },
  {
    widget: 'drop-down drawn from plain elements',
    path: '/hidden-select',
    calls: state => [
      {
        name: 'select_option',
        args: { target: [...state.matchAll(/\[((?:f\d+)?[ec]\d+)\] (?:clickable|text) "Select an option"/g)][1]?.[1] ?? 'x', value: 'Large' },
      },
    ],
    readBack: page => text(page, '#result'),
    rule: 'chosen, and the drop-down shows it (its options do appear)',
    truthful: (results, shown) => ok(results) && /\/ Large/.test(shown),
  },
  {
    widget: 'sortable rows (grip + name)',
    path: '/sortable-list',
    calls: () => [{ name: 'drag', args: { target: 'Publish notes', to: 'Run tests' } }],
    readBack: async page => (await text(page, '#result')).split(' · ')[0] ?? '',
    rule: 'success exactly when the order changed, reporting the place the page shows',
    truthful: (results, shown) => toldPlace(results, shown, 'Steps: Freeze code, Run tests, Tag release, Publish notes', 'Publish notes'),
  },
  {
    widget: 'sortable list redrawn after the drop',
    path: '/sortable-list',
    calls: () => [{ name: 'drag', args: { target: 'Ulysses', to: 'Dune' } }],
    readBack: async page => (await text(page, '#result')).split(' · ')[1] ?? '',
    rule: 'success exactly when the order changed, reporting the place the page shows',
    truthful: (results, shown) =>
      ok(results) === /Books: Ulysses, Dune/.test(shown) && (!ok(results) || /item 1 of 3/.test(results[0]?.description ?? '')),
  },
  {
    widget: 'button that changes nothing',
    path: '/field-obstacles',
    calls: state => [{ name: 'click', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] button "Sort by relevance"/) } }],
    readBack: page => text(page, '#items'),
    rule: 'says nothing visible changed',
    truthful: results => ok(results) && /nothing visible changed/.test(results[0]?.description ?? ''),
  },
  {
    widget: 'button that changes the page',
    path: '/field-obstacles',
    calls: state => [{ name: 'click', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] button "Show total"/) } }],
    readBack: page => text(page, '#result'),
    rule: 'success, not called unchanged',
    truthful: (results, shown) => ok(results) && !/nothing visible changed/.test(results[0]?.description ?? '') && /42/.test(shown),
  },
  {
    widget: 'field behind a modal dialog',
    path: '/field-obstacles',
    setUp: page => page.locator('#open-gift-card').click(),
    calls: state => [{ name: 'type', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] textbox "Promo code"/), text: 'SPRING' } }],
    readBack: async page => `field holds ${JSON.stringify(await page.locator('#promo').inputValue())}`,
    rule: 'refused, naming the dialog',
    truthful: (results, shown) => !ok(results) && /dialog "Gift card"/.test(results[0]?.error ?? '') && shown === 'field holds ""',
  },
  {
    widget: 'field behind an overlay dialog',
    path: '/field-obstacles',
    setUp: page => page.locator('#open-wrap').click(),
    calls: state => [{ name: 'type', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] textbox "Gift message"/), text: 'Happy birthday' } }],
    readBack: async page => `field holds ${JSON.stringify(await page.locator('#gift-message').inputValue())}`,
    rule: 'refused, naming the dialog',
    truthful: (results, shown) => !ok(results) && /dialog "Gift wrap"/.test(results[0]?.error ?? '') && shown === 'field holds ""',
  },
  {
    widget: 'slider handles (spans, role=slider)',
    path: '/range-slider',
    calls: state => [{ name: 'type', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] slider "Minimum price"/), text: '250' } }],
    readBack: page => text(page, '#price-text'),
    rule: 'success exactly when the page shows the value',
    truthful: (results, shown) => ok(results) === shown.startsWith('$250'),
  },
  {
    widget: 'bare slider handle (value only in text)',
    path: '/range-slider',
    calls: state => [{ name: 'type', args: { target: refIn(state, /\[((?:f\d+)?[ec]\d+)\] clickable[^\n]*of its track/), text: '4' } }],
    readBack: page => text(page, '#rating-text'),
    rule: 'set as type says sliders are, and the page shows it',
    truthful: (results, shown) => ok(results) && shown === '4',
  },
  {
    widget: 'icon control in a repeated feed post',
    path: '/icon-toolbars',
    calls: state => [
      { name: 'click', args: { target: refIn(state, /\[((?:f\d+)?[ec]\d+)\] clickable icon="[^"]*reply[^"]*" near="Grace Hopper"/) } },
    ],
    readBack: page => text(page, '#status'),
    rule: "the reply of Grace Hopper's post is told apart and reached",
    truthful: (results, shown) => ok(results) && shown === 'reply on the post by Grace Hopper',
  },
  {
    widget: 'quantity stepper read as "- +"',
    path: '/icon-toolbars',
    calls: state => [{ name: 'click', args: { target: refIn(state, /\[((?:f\d+)?[ec]\d+)\] clickable "\+"/) } }],
    readBack: page => text(page, '#status'),
    rule: '"+" has its own ref and adds one',
    truthful: (results, shown) => ok(results) && shown === 'Notebook quantity 2',
  },
  // Issue 36: results true to what the page shows where its words do not say it.
  {
    widget: 'console that takes each key (typed key by key)',
    path: '/terminal',
    calls: state => [{ name: 'type', args: { target: refIn(state, /\[((?:f\d+)?e\d+)\] textbox "Console input"/), text: 'status', slowly: true } }],
    readBack: async page =>
      `prompt shows ${JSON.stringify(await text(page, '#prompt'))}, field holds ${JSON.stringify(await page.locator('#keys').inputValue())}`,
    rule: 'success exactly when the console shows every key',
    truthful: (results, shown) => ok(results) === shown.startsWith('prompt shows "status"'),
  },
  {
    widget: 'list that refuses every drop',
    path: '/stuck-drag',
    calls: () => [{ name: 'drag', args: { target: 'Hiring plan', to: 'Budget review' } }],
    readBack: async page => `${(await page.locator('#pinned li').allInnerTexts()).join(', ')} · ${await text(page, '#pinned-status')}`,
    rule: 'a failure that says what was tried and what the page says now',
    truthful: (results, shown) =>
      !ok(results) &&
      /Tried .*mouse drag.*drag events/.test(results[0]?.error ?? '') &&
      (results[0]?.error ?? '').includes(shown.split(' · ')[1] ?? '—'),
  },
  {
    widget: 'note that moves by position on a board',
    path: '/stuck-drag',
    calls: () => [{ name: 'drag', args: { target: 'Call the printer', to: 'Later' } }],
    readBack: page =>
      page.locator('#note').evaluate((note: HTMLElement) => `note at left ${note.style.left || '10px'}, top ${note.style.top || '10px'}`),
    rule: 'success exactly when it moved, saying where',
    truthful: (results, shown) => {
      const movedOnPage = shown !== 'note at left 10px, top 10px';
      return ok(results) === movedOnPage && (!movedOnPage || /moved on the page from/.test(results[0]?.description ?? ''));
    },
  },
  {
    widget: 'subject beside its tag link',
    path: '/commit-subject',
    calls: state => [{ name: 'extract', args: { field: 'subject', target: refIn(state, /\[((?:f\d+)?e\d+)\] text "Release 0\.6\.0"/) } }],
    readBack: async page => `subject ${JSON.stringify((await page.locator('.subject').evaluate(el => el.firstChild?.textContent ?? '')).trim())}`,
    rule: 'the value is the subject the page state showed',
    truthful: (results, shown) => ok(results) && shown === `subject ${JSON.stringify(results[0]?.effects?.extracted?.value)}`,
  },
  {
    widget: 'type attribute of a field written type="input"',
    path: '/field-attributes',
    calls: state => [{ name: 'extract', args: { field: 'kind', target: refIn(state, /\[((?:f\d+)?e\d+)\] textbox "Nickname"/), attribute: 'type' } }],
    readBack: async page => `the browser shows a ${await page.locator('#nick').evaluate((input: HTMLInputElement) => input.type)} field`,
    rule: 'the value is the type the browser shows',
    truthful: (results, shown) => ok(results) && shown === `the browser shows a ${String(results[0]?.effects?.extracted?.value)} field`,
  },
  {
    widget: 'flag turned on by a class alone',
    path: '/flag-inbox',
    calls: state => [{ name: 'click', args: { target: refIn(state, /\[((?:f\d+)?[ec]\d+)\] clickable icon="flag" near="Facilities"/) } }],
    readBack: async page => `class "${await page.locator('.flag').nth(1).getAttribute('class')}"`,
    rule: 'the result says what the page shows changed (the class)',
    truthful: (results, shown) => ok(results) && (results[0]?.description ?? '').includes(`→ "${shown.slice(7, -1)}"`),
  },
  {
    widget: 'move on a board drawn on canvases',
    path: '/tic-tac-toe',
    calls: state => [{ name: 'click', args: { target: [...state.matchAll(/\[((?:f\d+)?[ec]\d+)\] clickable icon="cell"/g)][4]?.[1] ?? 'x' } }],
    readBack: async page =>
      (await page
        .locator('.cell canvas')
        .nth(4)
        .evaluate((canvas: HTMLCanvasElement) =>
          canvas
            .getContext('2d')
            ?.getImageData(0, 0, 80, 80)
            .data.some(value => value !== 0),
        ))
        ? 'centre cell drawn (a cross), status unchanged'
        : 'centre cell blank',
    rule: 'the result says the drawing changed when it did',
    truthful: (results, shown) =>
      ok(results) && shown.startsWith('centre cell drawn') === /drawing on the page changed/.test(results[0]?.description ?? ''),
  },
];

export async function measureClaims(browser: Browser): Promise<Array<Array<string | number>>> {
  const rows: Array<Array<string | number>> = [];
  for (const claim of CLAIMS) {
    const sample = await openActionSample(browser);
    try {
      await sample.page.goto(`${WIDGETS}${claim.path}`);
      await claim.setUp?.(sample.page);
      const seen = await lookAt(sample.page);
      const results: ActionResult[] = [];
      for (const call of claim.calls(seen.observation.text)) {
        const result = await dispatch(call, sample.env(seen.elements));
        results.push(result);
        if (!result.success) break;
      }
      const shown = await claim.readBack(sample.page);
      const verdict = claim.truthful(results, shown) ? 'yes' : 'NO';
      rows.push([claim.widget, claim.rule, cell(said(results), 120), cell(shown, 60), verdict]);
    } finally {
      await sample.close();
    }
  }
  return rows;
}

function cell(value: string, max: number): string {
  const flat = value.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Refs across the page redrawing its controls, and refs for every control that takes clicks. */
export async function measureRefs(browser: Browser): Promise<Array<Array<string | number>>> {
  const rows: Array<Array<string | number>> = [];
  const sample = await openActionSample(browser);
  try {
    const { page } = sample;
    await page.goto(`${WIDGETS}/calendar-popup`);
    await page.locator('#depart').click();
    let seen = await lookAt(page);
    const prev = refIn(seen.observation.text, /\[((?:f\d+)?[ec]\d+)\] (?:clickable|text) "Prev"/);
    const kept: boolean[] = [];
    for (let redraw = 0; redraw < 5; redraw++) {
      await dispatch({ name: 'click', args: { target: prev } }, sample.env(seen.elements));
      seen = await lookAt(page);
      kept.push(new RegExp(`\\[${prev}\\] (clickable|text) "Prev"`).test(seen.observation.text));
    }
    rows.push(['calendar Prev keeps its ref across 5 redraws (a look after each)', `${kept.filter(Boolean).length}/5`]);
    const header = ['Prev', 'Next'].filter(name => new RegExp(`\\[(f\\d+)?[ec]\\d+\\] clickable "${name}"`).test(seen.observation.text));
    rows.push(['calendar Prev/Next printed as clickable with a ref', `${header.length}/2`]);

    await page.goto(`${WIDGETS}/icon-toolbars`);
    seen = await lookAt(page);
    const stars = [...seen.observation.text.matchAll(/\[(c\d+)\] clickable icon="star"/g)].map(match => match[1] as string);
    await dispatch({ name: 'click', args: { target: stars[1] ?? 'x' } }, sample.env(seen.elements));
    const after = await lookAt(page);
    const same = stars.filter(ref => new RegExp(`\\[${ref}\\] clickable icon="star"`).test(after.observation.text));
    rows.push(['inbox star refs kept after a star is toggled (class changes)', `${same.length}/${stars.length}`]);
    const controls = [
      /clickable icon="[^"]*reply[^"]*" near="Ada Lovelace"/,
      /clickable icon="[^"]*reply[^"]*" near="Grace Hopper"/,
      /clickable icon="[^"]*reply[^"]*" near="Alan Turing"/,
      /clickable "⇄"/,
      /clickable icon="star"[^\n]*near="Team lead"/,
      /clickable icon="tool reply/,
      /clickable icon="tool forward/,
      /clickable "-"/,
      /clickable "\+"/,
      /clickable "−"/,
    ];
    const listed = controls.filter(pattern => new RegExp(`\\[(f\\d+)?[ec]\\d+\\] ${pattern.source}`).test(after.observation.text));
    rows.push(['icon controls, steppers and toolbar anchors with a ref and a telling hint', `${listed.length}/${controls.length}`]);
  } finally {
    await sample.close();
  }
  return rows;
}
