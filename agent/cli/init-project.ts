import * as fs from 'node:fs';
import * as path from 'node:path';
import { docPath } from '../fs/package-docs';
import { PACKAGE_ROOT } from '../fs/package-root';
import { BwaInputError } from '../task/input-errors';
import { wireConfig } from './config-wiring';
import { exampleSpec } from './example-task';

/** The names Playwright looks for, in its order. */
export const CONFIG_NAMES = [
  'playwright.config.ts',
  'playwright.config.js',
  'playwright.config.mts',
  'playwright.config.mjs',
  'playwright.config.cts',
  'playwright.config.cjs',
];

/** What a project needs kept out of git: evidence and signed-in browser states (credentials). */
const IGNORED = ['reports/', '.auth/'];

export interface ProjectInit {
  /** One line per thing looked at: what was done, or why nothing was. */
  lines: string[];
  /** Whether anything was written. */
  changed: boolean;
  /** Lines the user must add by hand (the config could not be edited for certain). */
  manual?: string[];
}

/**
 * `bwa init` in a project: wires bwa into its Playwright config where the edit is certain (else says exactly what
 * to add), creates tasks/ with an example that runs nothing until copied, and keeps evidence and sign-in states out
 * of git. Never overwrites a file; a second run changes nothing and says so.
 */
export function initProject(cwd: string, configName?: string): ProjectInit {
  const lines: string[] = [];
  let changed = false;
  let manual: string[] | undefined;

  const config = configName ? path.resolve(cwd, configName) : CONFIG_NAMES.map(name => path.join(cwd, name)).find(file => fs.existsSync(file));
  // The project is the config's folder: tasks/ and .gitignore go beside it, where a run reads them.
  const dir = config ? path.dirname(config) : cwd;
  const below = config ? [] : configsOneFolderDown(cwd);
  if (below.length)
    throw new BwaInputError(
      'BWA_INIT_CONFIG',
      `no Playwright config here, but ${below.map(file => path.relative(cwd, file)).join(' and ')}: run \`npx bwa init --config ${path.relative(cwd, below[0]!)}\` (or bwa init in its folder) rather than starting a second project here`,
    );
  if (!config) {
    const file = path.join(dir, 'playwright.config.ts');
    fs.writeFileSync(file, NEW_CONFIG, { flag: 'wx' });
    lines.push(`✓ wrote ${rel(cwd, file)}: a Playwright config with bwa added (there was none)`);
    changed = true;
  } else if (!fs.existsSync(config)) {
    throw new Error(`${config}: no such file`);
  } else {
    const wiring = wireConfig(fs.readFileSync(config, 'utf8'));
    if (wiring.kind === 'wired') {
      fs.writeFileSync(config, wiring.text);
      lines.push(`✓ ${rel(cwd, config)}: your config, wrapped in withBwa(…) (it adds the bwa project, its reporter and setup; yours stay)`);
      changed = true;
    } else if (wiring.kind === 'already') lines.push(`· ${rel(cwd, config)}: nothing to do (${wiring.why})`);
    else {
      manual = wiring.lines;
      lines.push(`✗ ${rel(cwd, config)}: left as it is (${wiring.why}); add bwa by hand:`, ...wiring.lines.map(line => `    ${line}`));
    }
  }

  const tasks = path.join(dir, 'tasks');
  const example = path.join(tasks, '_example.json');
  const exampleCsv = path.join(tasks, 'inputs', '_example.csv');
  const created = [example, exampleCsv].filter(file => !fs.existsSync(file));
  if (fs.existsSync(tasks) && fs.readdirSync(tasks).some(name => name.endsWith('.json') && name !== '_example.json'))
    lines.push(`· ${rel(cwd, tasks)}/: nothing to do (it holds tasks already)`);
  else if (created.length === 0) lines.push(`· ${rel(cwd, tasks)}/: nothing to do (the example is there)`);
  else {
    fs.mkdirSync(path.dirname(exampleCsv), { recursive: true });
    if (created.includes(example))
      fs.writeFileSync(example, `${JSON.stringify(exampleSpec(schemaFrom(tasks), docPath('docs/task-spec.md', dir)), null, 2)}\n`, { flag: 'wx' });
    if (created.includes(exampleCsv)) fs.writeFileSync(exampleCsv, 'sample_id,url\nexample_home,https://example.com/\n', { flag: 'wx' });
    lines.push(`✓ ${rel(cwd, tasks)}/: an example task (_example.json, inputs/_example.csv), commented; files starting with "_" never run`);
    changed = true;
  }

  const gitignore = path.join(dir, '.gitignore');
  const present = fs.existsSync(gitignore) ? fs.readFileSync(gitignore, 'utf8') : undefined;
  const missing = IGNORED.filter(
    entry => !(present ?? '').split(/\r?\n/).some(line => [entry, `/${entry}`, entry.slice(0, -1), `/${entry.slice(0, -1)}`].includes(line.trim())),
  );
  if (missing.length === 0) lines.push(`· ${rel(cwd, gitignore)}: nothing to do (it ignores ${IGNORED.join(' and ')})`);
  else {
    const block = `${present && !present.endsWith('\n') ? '\n' : ''}# bwa: run evidence, and signed-in browser states (credentials)\n${missing.join('\n')}\n`;
    fs.appendFileSync(gitignore, block);
    lines.push(`✓ ${rel(cwd, gitignore)}: ${present === undefined ? 'written, ignoring' : 'now also ignores'} ${missing.join(' and ')}`);
    changed = true;
  }
  return { lines, changed, ...(manual ? { manual } : {}) };
}

/** Playwright configs in the folders right below this one (not node_modules): a project whose config lives in e2e/. */
function configsOneFolderDown(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(entry => entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .flatMap(entry => CONFIG_NAMES.map(name => path.join(dir, entry.name, name)))
    .filter(file => fs.existsSync(file));
}

/** The task schema as the project reaches it: the installed package's copy, relative to the tasks folder. */
export function schemaFrom(tasksDir: string): string {
  return path
    .relative(tasksDir, path.join(PACKAGE_ROOT, 'schema', 'task.schema.json'))
    .split(path.sep)
    .join('/');
}

function rel(from: string, file: string): string {
  return path.relative(from, file) || '.';
}

const NEW_CONFIG = `import { defineConfig } from '@playwright/test';
import { withBwa } from 'bwa';

// bwa adds its project (one test per task sample: npx playwright test --grep @<task_id>), its reporter and its setup.
export default withBwa(
  defineConfig({
    testDir: './tests',
    reporter: 'list',
  }),
);
`;
