import { expect, test } from '@playwright/test';
import { readTyped } from '../../../agent/actions/values/coerce';

/** Relative dates in the page's language, counted from one fixed moment (the element's timestamp, or the time of reading). */
const FROM = { instant: new Date('2024-05-10T12:00:00Z'), said: 'its datetime' };

const TABLE: Array<[language: string, text: string, date: string | undefined]> = [
  ['en', '3 days ago', '2024-05-07'],
  ['en', 'in 2 weeks', '2024-05-24'],
  ['de', 'vor 3 Tagen', '2024-05-07'],
  ['fr', 'il y a 2 heures', '2024-05-10'],
  ['it', '3 giorni fa', '2024-05-07'],
  ['nl', '2 dagen geleden', '2024-05-08'],
  ['ru', '3 дня назад', '2024-05-07'],
  // Those chrono-node does not read on its own.
  ['es', 'hace 3 días', '2024-05-07'],
  ['es', 'Publicado hace un día', '2024-05-09'],
  ['es', 'hace 1 mes', '2024-04-10'],
  ['es', 'dentro de 2 semanas', '2024-05-24'],
  ['es', 'hacer 3 días', undefined],
  ['pt', 'há 3 dias', '2024-05-07'],
  ['pt', '3 dias atrás', '2024-05-07'],
  ['pt', 'há um mês', '2024-04-10'],
  ['pt', 'daqui a 2 semanas', '2024-05-24'],
  ['sv', 'för 3 dagar sedan', '2024-05-07'],
  ['sv', 'för en vecka sedan', '2024-05-03'],
  ['sv', 'om 2 veckor', '2024-05-24'],
  ['ja', '3日前', '2024-05-07'],
  ['ja', '2時間前', '2024-05-10'],
  ['ja', '2週間後', '2024-05-24'],
  ['ja', '1ヶ月前', '2024-04-10'],
  ['zh', '3天前', '2024-05-07'],
  ['zh', '2小时前', '2024-05-10'],
  ['zh', '3個月前', '2024-02-10'],
  ['zh', '2周后', '2024-05-24'],
  // Absolute dates in the same languages stay absolute.
  ['ja', '2024年1月3日', '2024-01-03'],
  ['es', '23 de abril de 2024', '2024-04-23'],
];

for (const [language, text, date] of TABLE) {
  test(`${language}: ${JSON.stringify(text)} → ${date ?? 'no date'}`, () => {
    const read = readTyped(text, 'date', { languages: [language], reference: FROM });
    expect(read?.value).toBe(date);
    if (!date || /\d{4}/.test(text)) return;
    expect(read?.reading).toContain('relative: counted from its datetime');
  });
}

test('a time past in hours keeps its time of day from the moment it counts from', () => {
  for (const [language, text] of [
    ['ja', '2時間前'],
    ['es', 'hace 2 horas'],
    ['sv', '2 timmar sedan'],
  ]) {
    const read = readTyped(text!, 'date', { languages: [language!], reference: { instant: new Date('2024-05-10T01:00:00Z'), said: 'x' } });
    expect(read?.value, `${language} ${text}`).toBe('2024-05-09');
  }
});
