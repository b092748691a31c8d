import { expect, test } from '@playwright/test';
import { SecretMasker } from '../../../agent/secrets/masker';

const PASSWORD = 'pa"ss\\wo rd9';
const masker = SecretMasker.of({ PASSWORD, PIN: '1234', USER: 'editor', KEY: 'status', SECRET_WORD: 'secret', TINY: 'ab' });
const masked = (text: string) => masker.text(text);

test('a secret is masked in every form a page, a URL or a serialiser gives it, and in any mix of them', () => {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const forms = [
    PASSWORD,
    json(PASSWORD),
    json(json(PASSWORD)),
    json(json(json(PASSWORD))),
    encodeURIComponent(PASSWORD),
    encodeURIComponent(PASSWORD)
      .toLowerCase()
      .replace(/%2(\d)/g, '%2$1'),
    new URLSearchParams({ p: PASSWORD }).toString().slice(2),
    encodeURIComponent(json(PASSWORD)),
    'pa&quot;ss\\wo&nbsp;rd9',
    'pa&#34;ss&#92;wo&#32;rd9',
    'pa&#x22;ss&#X5c;wo rd9',
    'pa\\u0022ss\\u005Cwo rd9',
    'pa%22ss\\wo+rd9',
  ];
  for (const form of forms) expect(masked(`before ${form} after`), form).toBe('before {{secret:PASSWORD}} after');
});

test('a secret is masked as a word or number of its own, never out of a longer word, identifier or number', () => {
  expect(masked('Invoice total: 1234.50')).toBe('Invoice total: 1234.50');
  expect(masked('1,234 and 21234 and 12345 and 1234,5')).toBe('1,234 and 21234 and 12345 and 1234,5');
  expect(masked('PIN 1234.')).toBe('PIN {{secret:PIN}}.');
  expect(masked('pin=1234&next=1')).toBe('pin={{secret:PIN}}&next=1');
  expect(masked('last_editor, editors, Editor')).toBe('last_editor, editors, Editor');
  expect(masked('"editor" (editor)')).toBe('"{{secret:USER}}" ({{secret:USER}})');
  // An escape just before it ends the word before it.
  expect(masked('line\\neditor and %0Aeditor')).toBe('line\\n{{secret:USER}} and %0A{{secret:USER}}');
});

test('a distinctive secret (8+ characters mixing letters with digits or a symbol, or 20+) is masked inside a longer token too; a plain one is not', () => {
  const keys = SecretMasker.of({ API_KEY: 'Zq7xK2mP9w', PASSPHRASE: 'correcthorsebatterystaple', WORDY: 'editorial' });
  expect(keys.text('key sk_live_Zq7xK2mP9w, header Bearer%20Zq7xK2mP9w==, id xZq7xK2mP9wy')).toBe(
    'key sk_live_{{secret:API_KEY}}, header Bearer%20{{secret:API_KEY}}==, id x{{secret:API_KEY}}y',
  );
  expect(keys.text('pass=mycorrecthorsebatterystaple1')).toBe('pass=my{{secret:PASSPHRASE}}1');
  // Letters only and short of 20: an ordinary word, masked only as a word of its own.
  expect(keys.text('editorials and the editorial')).toBe('editorials and the {{secret:WORDY}}');
  // Names, phone numbers, amounts and dates mix only letters or digits with separators: never cut out of longer text.
  const plain = SecretMasker.of({ CITY: 'New York', PHONE: '555-01001', AMOUNT: '1,000,000', DAY: '2024-01-15' });
  expect(plain.text('The New Yorker; call 555-010012; total 21,000,000.50; 2024-01-150')).toBe(
    'The New Yorker; call 555-010012; total 21,000,000.50; 2024-01-150',
  );
  expect(plain.text('New York, 555-01001, 1,000,000 on 2024-01-15')).toBe('{{secret:CITY}}, {{secret:PHONE}}, {{secret:AMOUNT}} on {{secret:DAY}}');
  // The quoted password (12 characters of three kinds) inside a longer token, in an encoding too.
  expect(masked(`x${PASSWORD}y and id_${encodeURIComponent(PASSWORD)}`)).toBe('x{{secret:PASSWORD}}y and id_{{secret:PASSWORD}}');
});

test('placeholders already there stay as they are: masking twice changes nothing, a secret "secret" never rewrites one', () => {
  const once = masked('status: {{secret:PIN}} secret');
  expect(once).toBe('{{secret:KEY}}: {{secret:PIN}} {{secret:SECRET_WORD}}');
  expect(masked(once)).toBe(once);
  expect(masked('{{env:USER}}')).toBe('{{env:USER}}');
});

test('in data: string values only — keys, numbers, booleans and the identifier paths named are left alone', () => {
  const data = { status: 'status', value: 1234, done: true, nested: [{ status: 'editor' }], ids: { status: 'status' } };
  expect(masker.value(data, ['ids'])).toEqual({
    status: '{{secret:KEY}}',
    value: 1234,
    done: true,
    nested: [{ status: '{{secret:USER}}' }],
    ids: { status: 'status' },
  });
  expect(masker.value(data, ['**.status'])).toEqual(data);
  expect(masker.value(['status', 'x'], ['*'])).toEqual(['status', 'x']);
  // Input is never changed in place.
  expect(data.status).toBe('status');
});

test("the task author's words are kept as written where they stand; a kept text that is only the secret keeps nothing", () => {
  const keeping = masker.keeping(['You are a careful editor.', 'editor']);
  expect(keeping.text('You are a careful editor. The page says: editor')).toBe('You are a careful editor. The page says: {{secret:USER}}');
  expect(keeping.text(JSON.stringify({ goal: 'You are a careful editor.' }))).toBe('{"goal":"You are a careful editor."}');
  expect(keeping.namesIn('editor')).toEqual(['USER']);
});

test('which secrets a text holds; a secret shorter than 3 characters is never masked', () => {
  expect(masker.namesIn('abc ab 1234 pa%22ss%5Cwo%20rd9')).toEqual(['PIN', 'PASSWORD']);
  expect(masked('ab')).toBe('ab');
  expect(SecretMasker.of({ TINY: 'ab' }).isEmpty).toBe(true);
});
