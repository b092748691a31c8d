import { expect, test } from '@playwright/test';
import { recipeStepCall } from '../../../agent/decide/recipe-decider';
import { fillStartUrl, fillTemplatesDeep } from '../../../agent/task/row-template';
import type { Sample } from '../../../agent/task/samples';

const sample: Sample = {
  sample_id: 'ada',
  row: { sample_id: 'ada', username: 'ada lovelace', url: 'https://example.com/a?b=1' },
  line: 2,
  source: 'people.csv',
};

test('a start URL: a value inside it is percent-encoded, a whole-URL template is used as it is', () => {
  expect(fillStartUrl('https://example.com/search?q={{ username }}', sample)).toBe('https://example.com/search?q=ada%20lovelace');
  expect(fillStartUrl(' {{url}} ', sample)).toBe('https://example.com/a?b=1');
});

test('a column the row lacks is an error naming the template, the column and the columns there are — in a start URL as in a recipe step', () => {
  expect(() => fillStartUrl('https://example.com/people/{{user}}', sample)).toThrow(
    'sample ada: start_url: {{user}} in "https://example.com/people/{{user}}" is not a column of the sample (columns: sample_id, username, url)',
  );
  expect(() => fillStartUrl('{{link}}', sample)).toThrow(
    /\{\{link\}\} in "\{\{link\}\}" is not a column of the sample \(columns: sample_id, username, url\)/,
  );
  expect(() => recipeStepCall({ action: 'type', target: { label: 'Name' }, text: 'Dear {{first_name}}' }, sample.row, 'recipe step 2')).toThrow(
    'recipe step 2.text: {{first_name}} in "Dear {{first_name}}" is not a column of the sample (columns: sample_id, username, url)',
  );
});

test('secret placeholders are left for the action layer; nested values are filled where they are', () => {
  expect(fillTemplatesDeep({ target: { label: '{{username}}' }, values: ['{{sample_id}}', '{{secret:PASSWORD}}'] }, sample.row, 'step')).toEqual({
    target: { label: 'ada lovelace' },
    values: ['ada', '{{secret:PASSWORD}}'],
  });
});
