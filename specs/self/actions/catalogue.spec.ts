import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { actionNames, getAction } from '../../../agent/actions/registry';
import { CATALOGUE_FILE, renderActionCatalogue } from '../../../agent/actions/core/write-catalogue';

test('docs/actions.md lists every action, its arguments and what it verifies, as the registry has them', () => {
  const written = fs.readFileSync(CATALOGUE_FILE, 'utf8');
  expect(written, 'docs/actions.md is stale: run `npm run actions:doc`').toBe(renderActionCatalogue());
  for (const name of actionNames()) {
    expect(getAction(name)!.verifies.length, name).toBeGreaterThan(10);
    expect(written).toContain(`## \`${name}\``);
  }
  expect(written).toContain('| `value` | string or list of string | yes |');
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  expect(readme).toContain('[docs/actions.md](docs/actions.md)');
});
