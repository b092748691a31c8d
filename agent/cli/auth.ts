import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { authStatePath, PROFILE_NAME_RULE, ProfileName } from '../task/auth-profile';
import { BwaInputError } from '../task/input-errors';
import { parseJsonFile } from '../task/load-task';
import { defineCommand, type CommandGroup } from './command';
import { listed } from './listing';

/** What Playwright's storageState() writes (and `codegen --save-storage` saves). */
const StorageState = z.object({
  cookies: z.array(z.object({ name: z.string(), value: z.string(), domain: z.string(), path: z.string() }).loose()),
  origins: z.array(z.object({ origin: z.string(), localStorage: z.array(z.object({ name: z.string(), value: z.string() })) }).loose()),
});

const authImportCommand = defineCommand({
  name: 'auth import',
  summary: 'Make a signed-in browser state (a Playwright storage state file) the auth_profile <profile>',
  about: [
    'Tasks with "auth_profile": "<profile>" then start signed in. Record one by signing in by hand:',
    '  npx playwright codegen --save-storage=state.json <sign-in URL>',
    '(A profile with steps in tasks/auth/<profile>.json signs in by itself at the start of every run instead.)',
  ].join('\n'),
  options: {},
  positionals: [{ name: 'profile', value: { schema: ProfileName, takes: PROFILE_NAME_RULE } }, { name: 'storage-state.json' }],
  async run({ args: { profile, 'storage-state.json': file } }) {
    const parsed = StorageState.safeParse(parseJsonFile(path.resolve(file), 'BWA_AUTH_STATE'));
    if (!parsed.success)
      throw new BwaInputError(
        'BWA_AUTH_STATE',
        `${file}: not a Playwright storage state (expected {"cookies": [...], "origins": [...]}, as saved by npx playwright codegen --save-storage)\n${z.prettifyError(parsed.error)}`,
      );
    const target = authStatePath(profile);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.resolve(file), target);
    const hosts = [...new Set(parsed.data.cookies.map(c => c.domain.replace(/^\./, '')))];
    console.log(
      `auth_profile "${profile}": ${path.relative(process.cwd(), target)} (${parsed.data.cookies.length} cookie(s)${hosts.length ? ` for ${hosts.join(', ')}` : ''}, ${parsed.data.origins.length} origin(s) with local storage)`,
    );
    console.log(
      `Tasks with "auth_profile": "${profile}" now start signed in. The file holds a live session: keep it out of version control (.auth/ is git-ignored).`,
    );
    return 0;
  },
});

export const authCommand: CommandGroup = {
  ...listed('auth'),
  subcommands: [authImportCommand],
};
