import { RefMemory, identitiesOf } from '../../../agent/snapshot/stable-refs';
import { expect, test, WIDGETS } from '../actions/harness';
import { box, el } from './helpers';

/** Printed ref → what RefMemory printed for each live ref of a hand-built snapshot. */
function look(memory: RefMemory, roots: ReturnType<typeof el>[], scroll = { x: 0, y: 0 }): Map<string, string> {
  const identities = identitiesOf(roots, scroll);
  const renames = memory.assign(identities, new Map(), '');
  return new Map([...identities.keys()].map(live => [live, renames.get(live) ?? live]));
}

const header = (prev: string, next: string, month: string, y = 100) =>
  el('generic', { ref: `h${prev}` }, [
    el('generic', { ref: prev, name: 'Prev', box: box(y, 22, 10, 22) }),
    el('generic', { ref: next, name: 'Next', box: box(y, 22, 220, 22) }),
    el('generic', { text: month, box: box(y, 30, 0, 240) }),
  ]);

test.describe('refs survive re-renders (RefMemory)', () => {
  test('a control redrawn with the same role, name and box keeps its first ref; a changed name gets its own', () => {
    const memory = new RefMemory();
    expect(look(memory, [header('e10', 'e11', 'December')]).get('e10')).toBe('e10');
    const redrawn = look(memory, [header('e20', 'e21', 'November')]);
    expect(redrawn.get('e20')).toBe('e10');
    expect(redrawn.get('e21')).toBe('e11');
    expect(memory.live('e10')).toBe('e20');
    // The header around them has no box of its own here: it cannot be placed, so it gets its own ref.
    expect(redrawn.get('he20')).toBe('he20');
    const again = look(memory, [header('e30', 'e31', 'October')]);
    expect(again.get('e30')).toBe('e10');
    expect(memory.live('e10')).toBe('e30');
  });

  test('a node that stays keeps its ref, and no two nodes ever print the same ref', () => {
    const memory = new RefMemory();
    look(memory, [el('button', { ref: 'e1', name: 'Save', box: box(10) }), el('button', { ref: 'e2', name: 'Save', box: box(40) })]);
    const printed = look(memory, [
      el('button', { ref: 'e2', name: 'Save', box: box(40) }),
      el('button', { ref: 'e7', name: 'Save', box: box(70) }),
      el('button', { ref: 'e8', name: 'Save', box: box(100) }),
    ]);
    expect(printed.get('e2')).toBe('e2');
    // e1 left, two "Save" came at other places: neither is certainly it.
    expect(printed.get('e7')).toBe('e7');
    expect(printed.get('e8')).toBe('e8');
    expect(new Set(printed.values()).size).toBe(3);
  });

  test('repeated controls redrawn in place each keep their own ref; one redrawn elsewhere is another control', () => {
    const memory = new RefMemory();
    const rows = (refs: string[], ys: number[]) =>
      refs.map((ref, i) => el('row', { name: `Row ${i}`, box: box(ys[i]!) }, [el('button', { ref, name: 'Reply', box: box(ys[i]!, 20, 300, 40) })]));
    look(memory, rows(['e1', 'e2'], [10, 40]));
    const redrawn = look(memory, rows(['e5', 'e6'], [10, 40]));
    expect([redrawn.get('e5'), redrawn.get('e6')]).toEqual(['e1', 'e2']);
    const memory2 = new RefMemory();
    look(memory2, [el('button', { ref: 'e1', name: 'Export', box: box(10) })]);
    expect(look(memory2, [el('button', { ref: 'e9', name: 'Export', box: box(300) })]).get('e9')).toBe('e9');
  });

  test("an unnamed icon redrawn where another post's icon was does not take over that post's ref", () => {
    const memory = new RefMemory();
    const posts = (names: string[], refs: string[]) =>
      names.map((name, i) =>
        el('article', { box: box(i * 100, 90) }, [
          el('generic', { text: name, box: box(i * 100) }),
          el('generic', { ref: refs[i], box: box(i * 100 + 60, 18, 10, 18) }),
        ]),
      );
    look(memory, posts(['Ines', 'Tomas'], ['e1', 'e2']));
    // The list scrolled by one post and was drawn anew: Tomas's icon now sits where Ines's was.
    const redrawn = look(memory, posts(['Tomas', 'Amara'], ['e5', 'e6']));
    expect(redrawn.get('e5')).toBe('e5');
    expect(redrawn.get('e6')).toBe('e6');
    // Drawn again in place, each icon is its own post's.
    expect(look(memory, posts(['Tomas', 'Amara'], ['e7', 'e8']))).toEqual(
      new Map(
        [
          ...[
            ['e7', 'e5'],
            ['e8', 'e6'],
          ],
        ].map(([a, b]) => [a!, b!]),
      ),
    );
  });

  test('an added clickable keeps its number while it is the same element; a redrawn one takes over only a gone one', () => {
    const memory = new RefMemory();
    const printed = (added: Array<[string, string]>) => {
      const identities = new Map(added.map(([element, key], i) => [`c${i + 1}`, { element, key }]));
      const renames = memory.assign(new Map(), identities, '');
      return [...identities.keys()].map(provisional => renames.get(provisional) ?? provisional);
    };
    expect(
      printed([
        ['a', 'item boost Ines'],
        ['b', 'item boost Tomas'],
      ]),
    ).toEqual(['c1', 'c2']);
    // A post drawn on top, the others drawn anew one place down: each takes over its own post's number.
    expect(
      printed([
        ['z', 'item boost Zara'],
        ['a2', 'item boost Ines'],
        ['b2', 'item boost Tomas'],
      ]),
    ).toEqual(['c3', 'c1', 'c2']);
    // The same element keeps its number whatever its key says now (a slider knob whose readout changed).
    expect(
      printed([
        ['z', 'item boost Zara, now 4'],
        ['a2', 'item boost Ines'],
        ['b2', 'item boost Tomas'],
      ]),
    ).toEqual(['c3', 'c1', 'c2']);
    // A new element on a place whose element is still on the page (moved down) does not take its number.
    expect(
      printed([
        ['n', 'div:nth-of-type(1) bin'],
        ['z', 'item boost Zara'],
      ]),
    ).toEqual(['c4', 'c3']);
    expect(
      printed([
        ['m', 'div:nth-of-type(1) bin'],
        ['n', 'div:nth-of-type(2) bin'],
      ]),
    ).toEqual(['c5', 'c4']);
  });

  test('a new document starts afresh (its refs carry a new prefix)', () => {
    const memory = new RefMemory();
    look(memory, [el('button', { ref: 'e1', name: 'Go', box: box(10) })]);
    const identities = identitiesOf([el('button', { ref: 'f1e1', name: 'Go', box: box(10) })], { x: 0, y: 0 });
    expect(memory.assign(identities, new Map(), 'f1').size).toBe(0);
    expect(memory.knows('e1')).toBe(false);
  });
});

test.describe('refs survive re-renders (a popup calendar)', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/calendar-popup` });
    await harness.ok('click', { target: 'textbox "Departure date"' });
    await harness.look();
  });

  test('Prev and Next are clickable with refs; two clicks on one ref in one batch both land', async ({ harness, page }) => {
    const text = harness.observation().text;
    const prev = /\[(e\d+)\] clickable "Prev"/.exec(text)?.[1] ?? '';
    expect(text).toMatch(/\[e\d+\] clickable "Next"/);
    await harness.ok('click', { target: prev });
    // The header was redrawn: the same ref, from the same look, reaches the new Prev.
    await harness.ok('click', { target: prev });
    await expect(page.locator('.cal-title')).toHaveText('October\u00a02025');
    await harness.look();
    expect(harness.observation().text).toContain(`[${prev}] clickable "Prev"`);
    await harness.ok('click', { target: prev });
    await expect(page.locator('.cal-title')).toHaveText('September\u00a02025');
  });

  test("a redrawn day is another month's day: its ref is reported gone, never moved to the new month's", async ({ harness, page }) => {
    const december14 = harness.ref('link', '14');
    await harness.ok('click', { target: /\[(e\d+)\] clickable "Prev"/.exec(harness.observation().text)?.[1] ?? '' });
    await expect(page.locator('.cal-title')).toHaveText('November\u00a02025');
    const stale = await harness.act('click', { target: december14 });
    expect(stale).toMatchObject({ success: false });
    expect(stale.error).toMatch(/no longer on the page/);
    await expect(page.locator('#result')).toHaveText('Departure: none');
  });
});
