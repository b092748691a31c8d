import { expect, test } from '@playwright/test';
import { SecretMasker } from '../../../agent/secrets/masker';
import { outcomeTitle, stepTitle } from '../../../agent/loop/perform';
import { SITE } from '../helpers/sites';

const masker = SecretMasker.of({ TOKEN: 'hunter2-secret' });

test('the outcome step names what happened, on one line, with secrets put back as placeholders', () => {
  expect(outcomeTitle({ success: true, description: 'Screenshot saved: 01_profile.png' }, masker)).toBe('✓ Screenshot saved: 01_profile.png');
  expect(outcomeTitle({ success: false, description: 'click', error: 'No element matches button "Go"\n  try scrolling' }, masker)).toBe(
    '✗ No element matches button "Go" try scrolling',
  );
  expect(outcomeTitle({ success: false, description: 'Typed hunter2-secret' }, masker)).toBe('✗ Typed {{secret:TOKEN}}');
  const long = outcomeTitle({ success: true, description: `x = "${'a'.repeat(500)}"` }, masker);
  expect(long).toHaveLength(200);
  expect(long.endsWith('…')).toBe(true);
});

test('the step title carries number, action and target', () => {
  expect(stepTitle(2, { name: 'screenshot', args: { label: 'profile' } })).toBe('Step 2 · screenshot "profile"');
  expect(stepTitle(3, { name: 'extract', args: { field: 'name', target: { css: 'h1' } } })).toBe('Step 3 · extract name ← css=h1');
  expect(stepTitle(1, { name: 'goto', args: { url: `${SITE.people}/people/ada` } })).toBe('Step 1 · goto http://127.0.0.1:4101/people/ada');
});
