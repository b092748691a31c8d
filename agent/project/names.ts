import * as path from 'node:path';

/** The Playwright projects `withBwa` adds to the user's config: the generated sample tests, and the batch judge after them. */
export const BWA_PROJECTS = { tasks: 'bwa', judge: 'bwa-judge' } as const;

/** The files those projects load, beside this one: TypeScript in the checkout, JavaScript in the installed package. */
export const PROJECT_FILES = {
  dir: __dirname,
  generator: `tasks.spec${path.extname(__filename)}`,
  judge: `judge.spec${path.extname(__filename)}`,
} as const;
