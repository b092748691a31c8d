import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { SITE } from '../helpers/sites';
import { tempDir } from '../helpers/temp';

export const MEMBERS_URL = `${SITE.people}/orgs/acme/members?page=1`;
export const MEMBERS_PER_PAGE = 25;

/**
 * A Playwright config that is the user's (playwright.config.ts) with or without bwa's globalSetup. It lives in a temp folder,
 * so every relative path of the real config is made absolute (Playwright resolves them against the config's folder).
 */
export function configWithDiscovery(options: { globalSetup: boolean }): string {
  const dir = tempDir('bwa-discovery-config-');
  const file = path.join(dir, 'discovery.config.ts');
  const setup = options.globalSetup ? JSON.stringify(path.join(PROJECT_ROOT, 'agent/setup/global-setup.ts')) : 'undefined';
  fs.writeFileSync(
    file,
    `import * as path from 'node:path';
import base from ${JSON.stringify(path.join(PROJECT_ROOT, 'playwright.config'))};

const root = ${JSON.stringify(PROJECT_ROOT)};
const absolute = (p: string) => (p.startsWith('.') ? path.resolve(root, p) : p);
const BUILT_IN = ['list', 'line', 'dot', 'json', 'junit', 'null', 'github', 'html', 'blob'];
const reporters = (base.reporter as Array<[string, unknown?]>).filter(([name]) => BUILT_IN.includes(name) || name.startsWith('.'));

export default {
  ...base,
  globalSetup: ${setup},
  reporter: reporters.map(([name, options]) => (options ? [absolute(name), options] : [absolute(name)])),
  projects: base.projects!.map(p => ({ ...p, testDir: absolute(p.testDir!) })),
};
`,
  );
  return file;
}

/** A tasks folder holding only the bundled org_members task (other tasks' files cannot disturb the run). */
export function orgMembersTasksDir(overrides: Record<string, unknown> = {}, discover: Record<string, unknown> = {}): string {
  const dir = tempDir('bwa-discovery-tasks-');
  const spec = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tasks/org_members.json'), 'utf8'));
  delete spec.$schema;
  Object.assign(spec, overrides);
  spec.discover = { ...spec.discover, ...discover };
  fs.writeFileSync(path.join(dir, 'org_members.json'), JSON.stringify(spec, null, 2));
  return dir;
}

export function readCsv(file: string): Array<Record<string, string>> {
  return parse(fs.readFileSync(file, 'utf8'), { columns: true }) as Array<Record<string, string>>;
}

export async function acmeMembers(): Promise<string[]> {
  const truth = (await (await fetch(`${SITE.people}/__truth.json`)).json()) as { orgs: { acme: { members: string[] } } };
  return truth.orgs.acme.members;
}
