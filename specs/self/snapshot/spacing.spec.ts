import { expect, test } from '@playwright/test';
import { spacingNote } from '../../../agent/snapshot/spacing';

test('a value whose spacing a copy must keep is marked in words; ordinary values are not', () => {
  expect(spacingNote('Ship to  Dock 7 ')).toBe('spacing: 1 space at the end, doubled spaces inside');
  expect(spacingNote('  AB-12')).toBe('spacing: 2 spaces at the start');
  expect(spacingNote('\tcode\n')).toBe('spacing: 1 blank character at the start, 1 blank character at the end');
  expect(spacingNote('   ')).toBe('spacing: only 3 spaces');
  expect(spacingNote('Ada Lovelace')).toBeUndefined();
  expect(spacingNote('line one\nline two')).toBeUndefined();
  expect(spacingNote('')).toBeUndefined();
});
