import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { SITE } from '../helpers/sites';
import { tempDir } from '../helpers/temp';

export const MEMBERS_URL = `${SITE.people}/orgs/acme/members?page=1`;
export const MEMBERS_PER_PAGE = 25;

/**
 * A Playwright config of a user's, with bwa added, with or without bwa's globalSetup (as UI mode and editors run
 * without one). It lives in a temp folder and names this checkout as its project's folder, so the tasks' web_servers
 * commands run from here.
 */
export function configWithDiscovery(options: { globalSetup: boolean }): string {
  const dir = tempDir('bwa-discovery-config-');
  const file = path.join(dir, 'discovery.config.ts');
  fs.writeFileSync(
    file,
    `import { withBwa } from ${JSON.stringify(path.join(PROJECT_ROOT, 'agent/project/with-bwa'))};

const config = withBwa({ reporter: 'list' }, { projectDir: ${JSON.stringify(PROJECT_ROOT)} });
export default ${options.globalSetup ? 'config' : '{ ...config, globalSetup: undefined }'};
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
