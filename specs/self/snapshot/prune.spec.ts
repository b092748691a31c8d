import { expect, test } from '@playwright/test';
import { buildObservation, MASKED_VALUE } from '../../../agent/snapshot';
import type { AriaJsonNode } from '../../../agent/snapshot/raw';
import type { ControlFact } from '../../../agent/snapshot/page-metrics';
import { MAX_TEXT_CHARS } from '../../../agent/snapshot/serialize';
import { bodyLines, box, el, metrics } from './helpers';
import { SITE } from '../helpers/sites';

const URL = `${SITE.people}/people/ada`;

function site(...mainChildren: Array<string | AriaJsonNode>): AriaJsonNode[] {
  return [
    el('generic', { ref: 'e1', box: box(0, 2000) }, [
      el('banner', { ref: 'e2', box: box(0, 60) }, [
        el('link', { name: 'Home', ref: 'e3', url: '/', box: box(10) }),
        el('navigation', { ref: 'e4', box: box(10) }, [
          el('link', { name: 'Pricing', ref: 'e5', url: '/pricing', box: box(10) }),
          el('link', { name: 'Docs', ref: 'e6', url: '/docs', box: box(10) }),
        ]),
      ]),
      el('main', { ref: 'e7', box: box(60, 1800) }, mainChildren),
      el('contentinfo', { ref: 'e8', box: box(1900, 80) }, [
        'Copyright 2024',
        el('link', { name: 'Terms', ref: 'e9', url: '/terms', box: box(1900) }),
      ]),
    ]),
  ];
}

const profile = () =>
  site(
    el('heading', { name: 'Ada Lovelace', level: 1, ref: 'e10', box: box(70) }),
    el('link', { name: 'analytical-engine', ref: 'e11', url: '/ada/analytical-engine', box: box(100) }),
    el('button', { name: 'Follow', ref: 'e12', box: box(130) }),
  );

const BANNER_STUB = '[e2] banner (collapsed: 2 links — "Pricing", "Docs")';
const HOME_LINK = ' [e3] link "Home" → /';
const FOOTER_STUB = '[e8] contentinfo (collapsed: 1 link, 1 text — "Terms", "Copyright 2024")';

test.describe('pass 1: page chrome and wrappers', () => {
  test('collapses banner and contentinfo into one stub line each, keeping the home link, and says so in the header', () => {
    const observation = buildObservation(profile(), metrics(), URL);
    expect(bodyLines(observation.text)).toEqual([
      BANNER_STUB,
      HOME_LINK,
      '[e10] heading "Ada Lovelace" (level 1)',
      '[e11] link "analytical-engine" → /ada/analytical-engine',
      '[e12] button "Follow"',
      FOOTER_STUB,
    ]);
    expect(observation.text).toContain('2 collapsed, ');
    expect(observation.text.split('\n')[0]).toBe(`URL: ${JSON.stringify(URL)}`);
    expect(observation.stubs.map(stub => stub.ref)).toEqual(['e2', 'e8']);
    expect([...(observation.stubs[0]?.covers ?? [])]).toEqual(expect.arrayContaining(['e4', 'e5', 'e6']));
  });

  test('a keyword match inside chrome shows under its stub; the rest of the region stays collapsed', () => {
    const observation = buildObservation(profile(), metrics(), URL, { keywords: ['pricing'] });
    const lines = bodyLines(observation.text);
    expect(lines.slice(0, 3)).toEqual(['[e2] banner (collapsed: 1 link — "Docs")', HOME_LINK, ' [e5] link "Pricing" → /pricing']);
    expect(lines.join('\n')).not.toContain('"Terms"\n');
  });

  test('a navigation inside main (pagination) is content, not chrome', () => {
    const json = site(
      el('heading', { name: 'Results', level: 1, ref: 'e10', box: box(70) }),
      el('navigation', { name: 'Pagination', ref: 'e11', box: box(100) }, [el('link', { name: 'Next', ref: 'e12', url: '?page=2', box: box(100) })]),
    );
    const lines = bodyLines(buildObservation(json, metrics(), URL).text);
    expect(lines).toEqual([
      BANNER_STUB,
      HOME_LINK,
      '[e10] heading "Results" (level 1)',
      '[e11] navigation "Pagination"',
      ' [e12] link "Next" → ?page=2',
      FOOTER_STUB,
    ]);
  });

  test('a page that is nothing but chrome keeps its chrome', () => {
    const json = [el('navigation', { ref: 'e1', box: box(0) }, [el('link', { name: 'Sitemap entry', ref: 'e2', url: '/a', box: box(0) })])];
    expect(bodyLines(buildObservation(json, metrics(), URL).text)).toEqual(['[e2] link "Sitemap entry" → /a']);
  });

  test('flattens contentless generic wrappers but keeps their children, indented by kept ancestors only', () => {
    const json = site(
      el('generic', { ref: 'e20', box: box(70) }, [
        el('generic', { ref: 'e21', box: box(70) }, [
          el('list', { ref: 'e22', box: box(70) }, [el('listitem', { ref: 'e23', text: 'first item', box: box(70) })]),
        ]),
        el('dialog', { name: 'Confirm', ref: 'e24', box: box(100) }, [
          el('generic', { ref: 'e25', box: box(100) }, [el('button', { name: 'OK', ref: 'e26', box: box(100) })]),
        ]),
      ]),
    );
    expect(bodyLines(buildObservation(json, metrics(), URL).text)).toEqual([
      BANNER_STUB,
      HOME_LINK,
      '[e23] listitem "first item"',
      '[e24] dialog "Confirm"',
      ' [e26] button "OK"',
      FOOTER_STUB,
    ]);
  });
});

test.describe('pass 2: semantic roles and meaningful text', () => {
  test('keeps named images only, drops separators, collapses whitespace, keeps one-character content, shortens long text at a sentence end', () => {
    const long = `${'First sentence has words. '.repeat(8)}${'word '.repeat(100).trim()}`;
    const json = site(
      el('img', { name: 'Avatar of Ada', ref: 'e20', box: box(70) }),
      el('img', { ref: 'e21', box: box(70) }),
      el('img', { name: '[https://cdn.example/x/photo_123.jpg]', ref: 'e23', box: box(70) }),
      '·',
      '  many    spaces\n here ',
      el('paragraph', { ref: 'e24', text: 'K', box: box(90) }),
      el('paragraph', { ref: 'e25', text: '8', box: box(90) }),
      el('paragraph', { ref: 'e26', text: '★', box: box(90) }),
      el('paragraph', { ref: 'e22', text: long, box: box(100) }),
    );
    const lines = bodyLines(buildObservation(json, metrics(), URL).text).slice(2, -1);
    expect(lines.slice(0, 5)).toEqual(['[e20] img "Avatar of Ada"', 'text "many spaces here"', '[e24] text "K"', '[e25] text "8"', '[e26] text "★"']);
    // Whole sentences up to the limit, then a marker outside the quotes with how much is left.
    const whole = 'First sentence has words. '.repeat(Math.floor(MAX_TEXT_CHARS / 'First sentence has words. '.length)).trim();
    expect(lines[5]).toBe(`[e22] text "${whole} …" (+${long.length - whole.length} chars)`);
    expect(lines).toHaveLength(6);
  });

  test('drops a label string that only repeats the name of the control beside it', () => {
    const json = site(el('generic', { ref: 'e20', box: box(70) }, ['Email:', el('textbox', { name: 'Email', ref: 'e21', box: box(70) })]));
    expect(bodyLines(buildObservation(json, metrics(), URL).text).slice(2, -1)).toEqual(['[e21] textbox "Email"']);
  });

  test('folds each table row into one line and keeps links inside rows as their own lines', () => {
    const json = site(
      el('table', { name: 'People', ref: 'e20', box: box(70) }, [
        el('caption', { ref: 'e21', text: 'People', box: box(70) }),
        el('rowgroup', { ref: 'e22', box: box(90) }, [
          el('row', { ref: 'e23', box: box(90) }, [
            el('columnheader', { name: 'Name', ref: 'e24' }),
            el('columnheader', { name: 'Age', ref: 'e25' }),
          ]),
          el('row', { ref: 'e26', box: box(110) }, [
            el('cell', { name: 'Ada', ref: 'e27' }, [el('link', { name: 'Ada', ref: 'e28', url: '/ada', box: box(110) })]),
            el('cell', { name: '36', ref: 'e29' }),
          ]),
        ]),
      ]),
    );
    const observation = buildObservation(json, metrics(), URL);
    expect(bodyLines(observation.text).slice(2, -1)).toEqual([
      '[e20] table "People"',
      ' [e23] row "Name | Age"',
      ' [e26] row "Ada | 36"',
      '  [e28] link "Ada" → /ada',
    ]);
    expect(observation.refs.get('e29')?.name).toBe('36');
  });

  test("folds a native select's ref-less options into the combobox line, surfacing keyword matches", () => {
    const countries = ['France', 'Spain', 'Italy', 'Peru', 'Chad', 'Iran', 'Oman', 'Cuba', 'Fiji', 'Portugal'];
    const json = site(
      el(
        'combobox',
        { name: 'Country', ref: 'e20', box: box(70) },
        countries.map(name => el('option', name === 'Spain' ? { name, selected: true } : { name })),
      ),
    );
    const observation = buildObservation(json, metrics(), URL, { keywords: ['portugal'] });
    expect(bodyLines(observation.text).slice(2, -1)).toEqual([
      '[e20] combobox "Country" value="Spain" options: "France", "Spain", "Italy", "Peru", "Chad", "Iran", "Oman", "Cuba", "Portugal" (+1 more)',
    ]);
    expect(observation.refs.get('e20')?.options).toHaveLength(10);
  });

  test('a clickable generic with text reads as `clickable`', () => {
    const json = site(el('generic', { ref: 'e20', cursor: 'pointer', text: 'Open card', box: box(70) }));
    expect(bodyLines(buildObservation(json, metrics(), URL).text).slice(2, -1)).toEqual(['[e20] clickable "Open card"']);
  });

  test('a card linking its picture and title to one address under one name is one line listing every ref; another name keeps its line', () => {
    const card = (ref: number, title: string) => [
      el('link', { name: title, ref: `e${ref}`, url: `/story/${ref}`, box: box(70 + ref) }),
      el('link', { name: ` ${title} `, ref: `e${ref + 1}`, url: `/story/${ref}`, box: box(71 + ref) }),
      el('link', { name: '', ref: `e${ref + 2}`, url: `/story/${ref}`, box: box(72 + ref) }),
      el('link', { name: 'Read more', ref: `e${ref + 3}`, url: `/story/${ref}`, box: box(73 + ref) }),
    ];
    const observation = buildObservation(site(...card(20, 'Harbour works begin'), ...card(30, 'Harbour works end')), metrics(), URL);
    expect(bodyLines(observation.text).slice(2, -1)).toEqual([
      '[e20] link "Harbour works begin" → /story/20 (also [e21], [e22])',
      '[e23] link "Read more" → /story/20',
      '[e30] link "Harbour works end" → /story/30 (also [e31], [e32])',
      '[e33] link "Read more" → /story/30',
    ]);
  });
});

test.describe('values and states', () => {
  test('shows values, checked/selected/expanded/collapsed/disabled/pressed, and required/readonly/type from the page facts', () => {
    const json = site(
      el('textbox', { name: 'Search', ref: 'e20', text: 'hello', box: box(70, 21, 258, 177) }),
      el('checkbox', { name: 'Remember me', ref: 'e21', checked: true, box: box(100) }),
      el('checkbox', { name: 'All', ref: 'e22', checked: 'mixed', box: box(100) }),
      el('tab', { name: 'Overview', ref: 'e23', selected: true, box: box(130) }),
      el('button', { name: 'Menu', ref: 'e24', expanded: true, box: box(130) }),
      el('button', { name: 'Bold', ref: 'e25', pressed: true, disabled: true, box: box(130) }),
      el('spinbutton', { name: 'Age', ref: 'e26', text: '42', box: box(160) }),
      el('textbox', { name: 'Email', ref: 'e27', placeholder: 'you@example.com', box: box(190) }),
      el('button', { name: 'More', ref: 'e28', box: box(220, 20, 10, 60) }),
      el('textbox', { name: 'Code', ref: 'e29', text: 'BK-1', box: box(250, 20, 10, 80) }),
    );
    const fact = (at: { x: number; y: number; width: number; height: number }, extra: Partial<ControlFact>): ControlFact => ({
      box: at,
      tag: 'input',
      type: 'text',
      required: false,
      readonly: false,
      password: false,
      multiple: false,
      ...extra,
    });
    const lines = bodyLines(
      buildObservation(
        json,
        metrics({
          controls: [
            fact({ x: 258, y: 70, width: 177, height: 21 }, { required: true }),
            fact({ x: 10, y: 190, width: 200, height: 20 }, { type: 'email' }),
            fact({ x: 10, y: 250, width: 80, height: 20 }, { readonly: true, pattern: '[A-Z]{2}-\\d+' }),
          ],
          toggles: [{ box: { x: 10, y: 220, width: 60, height: 20 }, expanded: false, summary: false }],
        }),
        URL,
      ).text,
    ).slice(2, -1);
    expect(lines).toEqual([
      '[e20] textbox "Search" value="hello" (required)',
      '[e21] checkbox "Remember me" (checked)',
      '[e22] checkbox "All" (checked=mixed)',
      '[e23] tab "Overview" (selected)',
      '[e24] button "Menu" (expanded)',
      '[e25] button "Bold" (pressed, disabled)',
      '[e26] spinbutton "Age" value="42"',
      '[e27] textbox "Email" placeholder="you@example.com" type=email',
      '[e28] button "More" (collapsed)',
      '[e29] textbox "Code" value="BK-1" pattern="[A-Z]{2}-\\\\d+" (readonly)',
    ]);
  });

  test('masks password values, matched by box or by a credential-like name', () => {
    const json = site(
      el('textbox', { name: 'Passphrase', ref: 'e20', text: 'hunter2', box: box(70, 21, 10, 177) }),
      el('textbox', { name: 'Field 7', ref: 'e21', text: 'typed-secret', box: box(100, 21, 10, 177) }),
    );
    const password: ControlFact = {
      box: { x: 10, y: 100, width: 177, height: 21 },
      tag: 'input',
      type: 'password',
      required: false,
      readonly: false,
      password: true,
      multiple: false,
    };
    const observation = buildObservation(json, metrics({ controls: [password] }), URL);
    expect(observation.text).not.toContain('hunter2');
    expect(observation.text).not.toContain('typed-secret');
    expect(observation.refs.get('e21')?.value).toBe(MASKED_VALUE);
    expect(bodyLines(observation.text)[3]).toBe(`[e21] textbox "Field 7" value="${MASKED_VALUE}" type=password`);
  });
});

test.describe('iframes', () => {
  test('child-frame nodes nest under their iframe line, with frameRef and frame-offset boxes', () => {
    const json = site(
      el('heading', { name: 'Embed', level: 1, ref: 'e20', box: box(70) }),
      el('iframe', { ref: 'e21', box: { x: 0, y: 850, width: 600, height: 400 } }, [
        el('generic', { ref: 'f1e1', box: { x: 0, y: 0, width: 600, height: 400 } }, [
          el('button', { name: 'Submit', ref: 'f1e2', box: { x: 8, y: 8, width: 60, height: 20 } }),
          el('button', { name: 'Later', ref: 'f1e3', box: { x: 8, y: 300, width: 60, height: 20 } }),
        ]),
      ]),
    );
    const observation = buildObservation(json, metrics(), URL);
    expect(bodyLines(observation.text).slice(2, -1)).toEqual([
      '[e20] heading "Embed" (level 1)',
      '[e21] iframe',
      ' [f1e2] button "Submit"',
      ' [f1e3] button "Later"',
    ]);
    const submit = observation.refs.get('f1e2');
    expect(submit?.frameRef).toBe('e21');
    expect(submit?.box?.y).toBe(858);
    expect(submit?.inViewport).toBe(true);
    expect(observation.refs.get('f1e3')?.inViewport).toBe(false);
    expect(observation.stats.belowFold).toBe(1);
  });
});
