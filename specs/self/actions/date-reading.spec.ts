import { expect, test } from '@playwright/test';
import { readTyped } from '../../../agent/actions/values/coerce';
import { conventionsOf } from '../../../agent/actions/values/read-value';
import { conventionsOf as fieldConventions, toInputValue } from '../../../agent/actions/values/value-formats';

/** Dates are read from what the text says, never invented: a weekday anywhere, dots, CJK, no year. */

const read = (text: string, languages: string[] = []) => readTyped(text, 'date', conventionsOf(languages));

test('a weekday anywhere in a date does not hide its year', () => {
  for (const [text, languages, date] of [
    ['Mar 14 Fri 2014 09:05', [], '2014-03-14'],
    ['Mar 14 Fri 2014 09:05', ['en'], '2014-03-14'],
    ['Fri Mar 14 2014', [], '2014-03-14'],
    ['14 mars 2014, vendredi', ['fr'], '2014-03-14'],
    ['14. März Freitag 2014', ['de'], '2014-03-14'],
    ['2014年3月14日金曜日', ['ja'], '2014-03-14'],
  ] as const) {
    const got = read(text, [...languages]);
    expect(got?.value, text).toBe(date);
    expect(got?.reading ?? '', text).not.toContain('year is not shown');
  }
  expect(read('Mar 14 Fri 2014 09:05')?.from, 'the words read keep the weekday between them').toBe('Mar 14 Fri 2014 09:05');
});

test("a date written with dots is day first, whatever the page language; a field's own format hint still decides", () => {
  for (const languages of [[], ['en'], ['en-US'], ['de']]) {
    const got = read('Posted 05.03.2016 14:20', languages);
    expect(got?.value, languages.join()).toBe('2016-03-05');
    expect(got?.reading, languages.join()).toContain('read as day/month (written with dots, the day first)');
  }
  expect(read('05/03/2016', ['en-US'])?.value, 'slashes on a US page stay month first').toBe('2016-05-03');
  const hinted = fieldConventions({ lang: 'en-US', hint: 'MM.DD.YYYY' });
  expect(toInputValue('05.03.2016', 'date', hinted)?.value).toBe('2016-05-03');
});

test('a CJK date is read on a page that declares no language, the Korean form too', () => {
  expect(read('2016年3月5日 14:20')?.value).toBe('2016-03-05');
  expect(read('发布于2016年3月5日')?.value).toBe('2016-03-05');
  expect(read('2016년 3월 5일')?.value).toBe('2016-03-05');
  expect(read('le 5 mars 2016')?.value, 'another language chrono reads, absolute').toBe('2016-03-05');
  expect(read('nothing here is a date, hoy no'), 'only whole dates are read in languages the page does not declare').toBeUndefined();
});

test('a date shown without its year is month and day only, said so; a date field being filled still needs a year and says which', () => {
  for (const [text, languages, value] of [
    ['Posted 14 March', ['en'], '--03-14'],
    ['Thursday 3 Jan', [], '--01-03'],
    ['28 décembre', ['fr'], '--12-28'],
  ] as const) {
    const got = read(text, [...languages]);
    expect(got?.value, text).toBe(value);
    expect(got?.reading, text).toBe('the year is not shown: month and day only');
  }
  const filled = toInputValue('14 March', 'date', {});
  expect(filled?.value).toMatch(/^\d{4}-03-14$/);
  expect(filled?.reading).toMatch(/^the year is not shown: \d{4}, from the time of reading/);
});
