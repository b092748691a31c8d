import { FIXTURE_SITES } from '../../../fixtures/serve';

const NAMES = ['people', 'widgets', 'tracker', 'codehost', 'ci', 'peoplesearch', 'hr', 'audit'] as const;
type SiteName = (typeof NAMES)[number];

function siteOf(name: SiteName) {
  const site = FIXTURE_SITES.find(s => s.name === name);
  if (!site) throw new Error(`fixtures/serve.ts lists no site "${name}"`);
  return { url: `http://127.0.0.1:${site.port}`, host: `127.0.0.1:${site.port}` };
}

/** Each fixture site's base URL (no trailing slash), from the ports fixtures/serve.ts starts them on: `${SITE.people}/people/ada`. */
export const SITE = Object.fromEntries(NAMES.map(name => [name, siteOf(name).url])) as Record<SiteName, string>;

/** Each fixture site's host:port, as a task's allowed_domains lists it. */
export const SITE_HOST = Object.fromEntries(NAMES.map(name => [name, siteOf(name).host])) as Record<SiteName, string>;
