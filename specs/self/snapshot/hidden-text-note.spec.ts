import { expect, test } from '@playwright/test';
import { hiddenTextNote } from '../../../agent/snapshot/hidden-text';

const BLOCKS = [{ selector: 'main > p', text: 'Widget One $12.50', heading: false }];

test('the note on a tree that shows little tells the truth: nothing when the tree shows all the document holds; "only N" for a small tree; "empty" for none', () => {
  expect(hiddenTextNote({ blocks: BLOCKS }, 16, 16)).toBe('');
  expect(hiddenTextNote({ blocks: BLOCKS }, 400, 16)).toBe(
    '(the accessibility tree shows only 16 characters, but the document holds 400 characters of text — find searches its 1 text blocks; extract reads them by their [t…] refs)',
  );
  expect(hiddenTextNote({ blocks: [] }, 400, 0)).toBe('(the accessibility tree is empty, but the document holds 400 characters of text)');
  // A reason found for what the tree misses is said even when the counts tie.
  expect(hiddenTextNote({ why: { kind: 'picture', element: { tag: 'canvas' } }, blocks: [] }, 0, 0)).toContain('probably in a picture');
});
