import * as path from 'node:path';
import { writeGenerated } from '../fs/generated-file';
import type { EnvVariable } from './kinds';
import { ENV_GROUPS } from './variables';
import { PACKAGE_ROOT } from '../fs/package-root';

export const ENV_DOC_FILE = path.join(PACKAGE_ROOT, 'docs', 'environment.md');

/** docs/environment.md, generated from the schema in agent/env/variables.ts. */
export function renderEnvironmentDoc(): string {
  const sections = ENV_GROUPS.map(group => {
    const rows = Object.entries(group.variables).map(([name, variable]) => row(name, variable));
    return [
      `## ${group.title}`,
      ...(group.intro ? ['', group.intro] : []),
      '',
      '| variable | takes | default | meaning |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
  });
  return `# Environment variables

Generated from \`agent/env/variables.ts\` by \`npm run env:doc\` — do not edit by hand. \`.env\` in the project root
is loaded automatically. Every variable is checked when a run starts (\`playwright.config.ts\`, and bwa's globalSetup
for a config of your own) and by \`npx bwa validate\`: a value it does not take stops the run before any sample, with
one line per variable naming it and what it takes (a credential's value is never repeated). Unset and empty are the
same. A switch takes 1, 0, true, false, on, off, yes or no, in any case.

${sections.join('\n\n')}
`;
}

function row(name: string, variable: EnvVariable): string {
  return `| \`${name}\` | ${cell(variable.takes)} | ${cell(variable.fallback)} | ${cell(variable.description)} |`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

if (require.main === module) writeGenerated(ENV_DOC_FILE, renderEnvironmentDoc(), 'npm run env:doc');
