import { expect, test, WIDGETS } from './harness';

/** What a person writes → what the input must hold (and what its readback shows). */
const CASES: Array<{ label: string; id: string; typed: string; value: string; note?: RegExp }> = [
  { label: 'Alarm', id: 'alarm', typed: '7:14 AM', value: '07:14' },
  { label: 'Alarm', id: 'alarm', typed: '07:14', value: '07:14' },
  { label: 'Alarm', id: 'alarm', typed: '7:05 pm', value: '19:05' },
  { label: 'Departure date', id: 'departure', typed: 'Feb 21 2012', value: '2012-02-21' },
  { label: 'Departure date', id: 'departure', typed: '21/02/2012', value: '2012-02-21' },
  { label: 'Departure date', id: 'departure', typed: '03/04/2012', value: '2012-03-04', note: /read as month\/day \(the page language "en"\)/ },
  { label: 'Meeting starts', id: 'meeting', typed: 'Feb 21 2012 7:14 PM', value: '2012-02-21T19:14' },
  { label: 'Billing month', id: 'billing', typed: 'March 2026', value: '2026-03' },
  { label: 'Sprint week', id: 'sprint', typed: 'week 8 2012', value: '2012-W08' },
  { label: 'Sprint week', id: 'sprint', typed: '2012-02-21', value: '2012-W08' },
  { label: 'Quantity', id: 'quantity', typed: '12', value: '12' },
  { label: 'Accent color', id: 'accent', typed: 'rebeccapurple', value: '#663399' },
  { label: 'Accent color', id: 'accent', typed: '#ABC', value: '#aabbcc' },
  { label: 'Birthday', id: 'birthday', typed: '03/04/1990', value: '1990-04-03', note: /read as day\/month \(the field's format hint "DD\/MM\/YYYY/ },
  { label: 'Arrival date', id: 'arrival', typed: '03/04/2026', value: '2026-04-03', note: /read as day\/month \(the page language "en-GB"\)/ },
  { label: 'Betrag', id: 'amount', typed: '1.234,5', value: '1234.5' },
];

test.describe('type into typed inputs', () => {
  test("human forms become the input's value, checked afterwards and reported", async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/human-values` });
    for (const { label, id, typed, value, note } of CASES) {
      const result = await harness.ok('type', { target: label, text: typed });
      expect(await page.locator(`#${id}`).inputValue(), `${label} ← ${typed}`).toBe(value);
      await expect(page.locator(`#${id}-value`)).toHaveText(`${id} = ${value}`);
      if (typed !== value) expect(result.description, `${label} ← ${typed}`).toContain(`it now holds "${value}"`);
      if (note) expect(result.description).toMatch(note);
    }
  });

  test('a text that is not a value of that kind fails at once with the format it takes', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/human-values` });
    const time = await harness.act('type', { target: 'Alarm', text: 'quarter past seven' });
    expect(time).toMatchObject({ success: false, infra: false });
    expect(time.error).toMatch(
      /^Cannot type "quarter past seven" into .*"Alarm": it takes a time as HH:MM, 24-hour \(e\.g\. 07:14; "7:14 AM" is read too\)$/,
    );
    const number = await harness.act('type', { target: 'Quantity', text: 'a dozen' });
    expect(number.error).toContain('it takes a plain number');
    const date = await harness.act('type', { target: 'Departure date', text: '31/02/2012' });
    expect(date.error).toContain('it takes a date as YYYY-MM-DD');
    expect(await page.locator('#alarm').inputValue()).toBe('');
  });

  test('a value the page does not keep is a failure that says what the field shows', async ({ harness }) => {
    await harness.open(
      'typed-refused',
      `<label>Start <input type="time" id="t"></label>
      <script>document.getElementById('t').addEventListener('input', e => { e.target.value = ''; });</script>`,
    );
    const result = await harness.act('type', { target: 'Start', text: '7:14 AM' });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toMatch(/did not take "7:14 AM": it shows "" \(wanted "07:14"\); it takes a time as HH:MM/);
  });
});
