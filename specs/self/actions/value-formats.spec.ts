import { expect, test } from '@playwright/test';
import { closestOptions } from '../../../agent/actions/select/option-match';
import { checkTypedText } from '../../../agent/actions/fields/shown-value';
import { conventionsOf, readNumber, toInputValue, type TypedInput } from '../../../agent/actions/values/value-formats';

const US = conventionsOf({ lang: 'en-US' });
const GB = conventionsOf({ lang: 'en-GB' });
const DE = conventionsOf({ lang: 'de-DE' });

test.describe('human values → input values', () => {
  const table: Array<[TypedInput, string, string | undefined, typeof US?]> = [
    ['time', '7:14 AM', '07:14'],
    ['time', '7:14am', '07:14'],
    ['time', '12:00 AM', '00:00'],
    ['time', '12:30 p.m.', '12:30'],
    ['time', '19:05:30', '19:05:30'],
    ['time', '7pm', '19:00'],
    ['time', 'noon', '12:00'],
    ['time', '0714', '07:14'],
    ['time', '19', undefined],
    ['time', '25:00', undefined],
    ['time', '13:00 PM', undefined],
    ['date', '2012-02-21', '2012-02-21'],
    ['date', 'Feb 21 2012', '2012-02-21'],
    ['date', 'February 21st, 2012', '2012-02-21'],
    ['date', 'Tuesday, 21 February 2012', '2012-02-21'],
    ['date', '21-Feb-2012', '2012-02-21'],
    ['date', '21/02/2012', '2012-02-21', US],
    ['date', '02/21/2012', '2012-02-21', GB],
    ['date', '03/04/2012', '2012-03-04', US],
    ['date', '03/04/2012', '2012-04-03', GB],
    ['date', '03.04.2012', '2012-04-03'],
    ['date', '29/02/2013', undefined],
    ['date', 'Feb 30 2012', undefined],
    ['date', 'soon', undefined],
    ['datetime-local', '2012-02-21T07:14', '2012-02-21T07:14'],
    ['datetime-local', '2012-02-21 07:14', '2012-02-21T07:14'],
    ['datetime-local', 'Feb 21 2012 7:14 PM', '2012-02-21T19:14'],
    ['datetime-local', '21/02/2012, 19:05', '2012-02-21T19:05'],
    ['datetime-local', 'Feb 21 2012', undefined],
    ['month', 'Feb 2012', '2012-02'],
    ['month', 'February, 2012', '2012-02'],
    ['month', '02/2012', '2012-02'],
    ['month', '2012-2', '2012-02'],
    ['month', '2012-02-21', '2012-02'],
    ['week', '2012-W08', '2012-W08'],
    ['week', 'W8 2012', '2012-W08'],
    ['week', 'week 8 of 2012', '2012-W08'],
    ['week', '2021-01-03', '2020-W53'],
    ['week', '2024-12-30', '2025-W01'],
    ['week', '2021-W53', undefined],
    ['number', '1,234.5', '1234.5'],
    ['number', '1.234,5', '1234.5', DE],
    ['number', '1,234', '1234', US],
    ['number', '1,234', '1.234', DE],
    ['number', '3,5', '3.5'],
    ['number', '-12', '-12'],
    ['number', '1 234', '1234'],
    ['number', '1e3', '1000'],
    ['number', 'twelve', undefined],
    ['color', '#ABC', '#aabbcc'],
    ['color', '1a56db', '#1a56db'],
  ];
  for (const [kind, text, value, conventions] of table) {
    test(`${kind}: ${JSON.stringify(text)}${conventions?.source ? ` (${conventions.source})` : ''}`, () => {
      expect(toInputValue(text, kind, conventions)?.value).toBe(value);
    });
  }

  test('the page tells its date order by a format hint before its language', () => {
    expect(conventionsOf({ lang: 'en-US', hint: 'Birthday (DD/MM/YYYY)' })).toMatchObject({ dayFirst: true });
    expect(conventionsOf({ lang: 'en-GB', hint: 'mm/dd/yyyy' })).toMatchObject({ dayFirst: false });
    expect(conventionsOf({ lang: 'not a tag!' })).toEqual({});
    expect(toInputValue('03/04/2012', 'date', {})?.reading).toBe('read as month/day (the page does not say how it writes dates)');
  });

  test('numbers: a lone separator before three digits follows the page', () => {
    expect(readNumber('1.234')).toBe(1.234);
    expect(readNumber('1.234', true)).toBe(1234);
    expect(readNumber('1.234.567')).toBe(1234567);
    expect(readNumber('12,')).toBeUndefined();
  });
});

test.describe('did the field keep it', () => {
  test('formatted, recased or completed text is kept; empty, cut or different text is not', () => {
    expect(checkTypedText('5551234567', '(555) 123-4567')).toEqual({ ok: true, reformatted: true });
    expect(checkTypedText('ams', 'Amsterdam')).toEqual({ ok: true, reformatted: true });
    expect(checkTypedText('ada', 'ada')).toEqual({ ok: true, reformatted: false });
    expect(checkTypedText('hello', '')).toMatchObject({ ok: false, why: 'it is empty afterwards — the page cleared or refused the text' });
    expect(checkTypedText('longusername', 'longuser', 8)).toMatchObject({
      ok: false,
      why: 'it took only the first 8 of 12 characters (its limit is 8)',
    });
    expect(checkTypedText('Ada', 'Grace')).toMatchObject({ ok: false, why: 'it now shows "Grace" — the page changed the text' });
  });
});

test('closest options rank a typo first', () => {
  expect(closestOptions(['Uruguay', 'United Kingdom', 'United States', 'Ukraine'], 'Untied States', 2)).toEqual(['United States', 'United Kingdom']);
  expect(closestOptions(['Express', 'Standard', 'Overnight'], 'overnite', 1)).toEqual(['Overnight']);
});
