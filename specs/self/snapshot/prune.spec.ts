import { expect, test } from '@playwright/test';
import { buildObservation, MASKED_VALUE } from '../../../agent/snapshot';
import type { AriaJsonNode } from '../../../agent/snapshot/raw';
import { bodyLines, box, el, metrics } from './helpers';

const URL = 'http://127.0.0.1:4101/people/ada';

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
      el('contentinfo', { ref: 'e8', box: box(1900, 80) }, ['Copyright 2024', el('link', { name: 'Terms', ref: 'e9', url: '/terms', box: box(1900) })]),
    ]),
  ];
}

const profile = () =>
  site(
    el('heading', { name: 'Ada Lovelace', level: 1, ref: 'e10', box: box(70) }),
    el('link', { name: 'analytical-engine', ref: 'e11', url: '/ada/analytical-engine', box: box(100) }),
    el('button', { name: 'Follow', ref: 'e12', box: box(130) }),
  );

test.describe('pass 1: page chrome and wrappers', () => {
  test('drops banner, navigation and contentinfo subtrees and says so in the header', () => {
    const observation = buildObservation(profile(), metrics(), URL);
    expect(bodyLines(observation.text)).toEqual([
      '[e10] heading "Ada Lovelace" (level 1)',
      '[e11] link "analytical-engine" → /ada/analytical-engine',
      '[e12] button "Follow"',
    ]);
    expect(observation.text).toContain('pruned (incl. 2 chrome regions)');
    expect(observation.text.split('\n')[0]).toBe(`URL: ${URL}`);
  });

  test('keeps a keyword match inside chrome, noting its landmark, and nothing else of that region', () => {
    const observation = buildObservation(profile(), metrics(), URL, { keywords: ['pricing'] });
    const lines = bodyLines(observation.text);
    expect(lines).toContain('[e5] link "Pricing" → /pricing (in navigation)');
    expect(lines.join('\n')).not.toContain('Docs');
    expect(lines.join('\n')).not.toContain('Terms');
  });

  test('a navigation inside main (pagination) is content, not chrome', () => {
    const json = site(
      el('heading', { name: 'Results', level: 1, ref: 'e10', box: box(70) }),
      el('navigation', { name: 'Pagination', ref: 'e11', box: box(100) }, [el('link', { name: 'Next', ref: 'e12', url: '?page=2', box: box(100) })]),
    );
    const lines = bodyLines(buildObservation(json, metrics(), URL).text);
    expect(lines).toEqual(['[e10] heading "Results" (level 1)', '[e11] navigation "Pagination"', ' [e12] link "Next" → ?page=2']);
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
        el('dialog', { name: 'Confirm', ref: 'e24', box: box(100) }, [el('generic', { ref: 'e25', box: box(100) }, [el('button', { name: 'OK', ref: 'e26', box: box(100) })])]),
      ]),
    );
    expect(bodyLines(buildObservation(json, metrics(), URL).text)).toEqual([
      '[e23] listitem "first item"',
      '[e24] dialog "Confirm"',
      ' [e26] button "OK"',
    ]);
  });
});

test.describe('pass 2: semantic roles and meaningful text', () => {
  test('keeps named images only, drops separators, collapses whitespace and truncates long text', () => {
    const long = 'word '.repeat(100).trim();
    const json = site(
      el('img', { name: 'Avatar of Ada', ref: 'e20', box: box(70) }),
      el('img', { ref: 'e21', box: box(70) }),
      '·',
      '  many    spaces\n here ',
      el('paragraph', { ref: 'e22', text: long, box: box(100) }),
    );
    const lines = bodyLines(buildObservation(json, metrics(), URL).text);
    expect(lines[0]).toBe('[e20] img "Avatar of Ada"');
    expect(lines[1]).toBe('text "many spaces here"');
    expect(lines[2]).toMatch(/^\[e22\] text "(word ){40,}[^"]*…" \(499 chars\)$/);
    expect(lines).toHaveLength(3);
  });

  test('drops a label string that only repeats the name of the control beside it', () => {
    const json = site(el('generic', { ref: 'e20', box: box(70) }, ['Email:', el('textbox', { name: 'Email', ref: 'e21', box: box(70) })]));
    expect(bodyLines(buildObservation(json, metrics(), URL).text)).toEqual(['[e21] textbox "Email"']);
  });

  test('folds each table row into one line and keeps links inside rows as their own lines', () => {
    const json = site(
      el('table', { name: 'People', ref: 'e20', box: box(70) }, [
        el('caption', { ref: 'e21', text: 'People', box: box(70) }),
        el('rowgroup', { ref: 'e22', box: box(90) }, [
          el('row', { ref: 'e23', box: box(90) }, [el('columnheader', { name: 'Name', ref: 'e24' }), el('columnheader', { name: 'Age', ref: 'e25' })]),
          el('row', { ref: 'e26', box: box(110) }, [
            el('cell', { name: 'Ada', ref: 'e27' }, [el('link', { name: 'Ada', ref: 'e28', url: '/ada', box: box(110) })]),
            el('cell', { name: '36', ref: 'e29' }),
          ]),
        ]),
      ]),
    );
    const observation = buildObservation(json, metrics(), URL);
    expect(bodyLines(observation.text)).toEqual([
      '[e20] table "People"',
      ' [e23] row "Name | Age"',
      ' [e26] row "Ada | 36"',
      '  [e28] link "Ada" → /ada',
    ]);
    expect(observation.refs.get('e29')?.name).toBe('36');
  });

  test('folds a native select\'s ref-less options into the combobox line, surfacing keyword matches', () => {
    const countries = ['France', 'Spain', 'Italy', 'Peru', 'Chad', 'Iran', 'Oman', 'Cuba', 'Fiji', 'Portugal'];
    const json = site(
      el('combobox', { name: 'Country', ref: 'e20', box: box(70) },
        countries.map((name) => el('option', name === 'Spain' ? { name, selected: true } : { name }))),
    );
    const observation = buildObservation(json, metrics(), URL, { keywords: ['portugal'] });
    expect(bodyLines(observation.text)).toEqual([
      '[e20] combobox "Country" value="Spain" options: "France", "Spain", "Italy", "Peru", "Chad", "Iran", "Oman", "Cuba", "Portugal" (+1 more)',
    ]);
    expect(observation.refs.get('e20')?.options).toHaveLength(10);
  });

  test('a clickable generic with text reads as `clickable`', () => {
    const json = site(el('generic', { ref: 'e20', cursor: 'pointer', text: 'Open card', box: box(70) }));
    expect(bodyLines(buildObservation(json, metrics(), URL).text)).toEqual(['[e20] clickable "Open card"']);
  });
});

test.describe('values and states', () => {
  test('shows values, checked/selected/expanded/disabled/pressed, and required from the metrics', () => {
    const json = site(
      el('textbox', { name: 'Search', ref: 'e20', text: 'hello', box: box(70, 21, 258, 177) }),
      el('checkbox', { name: 'Remember me', ref: 'e21', checked: true, box: box(100) }),
      el('checkbox', { name: 'All', ref: 'e22', checked: 'mixed', box: box(100) }),
      el('tab', { name: 'Overview', ref: 'e23', selected: true, box: box(130) }),
      el('button', { name: 'Menu', ref: 'e24', expanded: true, box: box(130) }),
      el('button', { name: 'Bold', ref: 'e25', pressed: true, disabled: true, box: box(130) }),
      el('spinbutton', { name: 'Age', ref: 'e26', text: '42', box: box(160) }),
      el('textbox', { name: 'Email', ref: 'e27', placeholder: 'you@example.com', box: box(190) }),
    );
    const lines = bodyLines(buildObservation(json, metrics({ requiredBoxes: [{ x: 258, y: 70, width: 177, height: 21 }] }), URL).text);
    expect(lines).toEqual([
      '[e20] textbox "Search" value="hello" (required)',
      '[e21] checkbox "Remember me" (checked)',
      '[e22] checkbox "All" (checked=mixed)',
      '[e23] tab "Overview" (selected)',
      '[e24] button "Menu" (expanded)',
      '[e25] button "Bold" (pressed, disabled)',
      '[e26] spinbutton "Age" value="42"',
      '[e27] textbox "Email" placeholder="you@example.com"',
    ]);
  });

  test('masks password values, matched by box or by a credential-like name', () => {
    const json = site(
      el('textbox', { name: 'Passphrase', ref: 'e20', text: 'hunter2', box: box(70, 21, 10, 177) }),
      el('textbox', { name: 'Field 7', ref: 'e21', text: 'typed-secret', box: box(100, 21, 10, 177) }),
    );
    const observation = buildObservation(json, metrics({ passwordBoxes: [{ x: 10, y: 100, width: 177, height: 21 }] }), URL);
    expect(observation.text).not.toContain('hunter2');
    expect(observation.text).not.toContain('typed-secret');
    expect(observation.refs.get('e21')?.value).toBe(MASKED_VALUE);
    expect(bodyLines(observation.text)[1]).toBe(`[e21] textbox "Field 7" value="${MASKED_VALUE}"`);
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
    expect(bodyLines(observation.text)).toEqual([
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
