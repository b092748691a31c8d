import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../fs/atomic';
import { BwaInputError } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import { shipValueRules, SHIPPED_VALUES_DIR } from './shipped-values';
import { specCode } from './spec-code';
import { recipeStore } from './recipe-store';
import { secretNamesIn } from '../secrets/placeholders';
import { loadAuthProfile } from '../task/auth-profile';
import { exportedSecretSites } from '../task/secret-scope';

export interface ExportOptions {
  /** Default: specs/generated/<task_id>.spec.ts under the current directory. */
  out?: string;
  /** Default: <tasks dir>/inputs/<task_id>.csv. */
  csv?: string;
}

export interface Exported {
  file: string;
  csv: string;
  steps: number;
}

/** The stored compiled recipe (or, without one, the task spec's own recipe) as a Playwright spec file. */
export function exportRecipe(task: LoadedTask, options: ExportOptions = {}): Exported {
  const id = task.spec.task_id;
  const found = recipeStore().lookup(task);
  const steps = found.hit ? found.entry.steps : (task.spec.recipe ?? []);
  if (steps.length === 0)
    throw new BwaInputError(
      'BWA_RECIPE_EXPORT',
      `task ${id} has no recipe to export (${found.hit ? '' : `compiled: ${found.reason}; `}the task spec has none): run npx bwa recipe compile <run> ${id} first`,
    );
  // "tasks.spec.ts" anywhere under specs/ is the generator's name: the `tasks` project would pick it up.
  const file = path.resolve(options.out ?? path.join('specs', 'generated', `${id === 'tasks' ? 'tasks-recipe' : id}.spec.ts`));
  const tasksDir = path.dirname(task.file);
  const csv = path.resolve(options.csv ?? path.join(tasksDir, 'inputs', `${id}.csv`));
  const relative = (to: string) => path.relative(path.dirname(file), to).split(path.sep).join('/') || '.';
  const origin = found.hit
    ? `${path.relative(process.cwd(), found.location)} (revision ${found.entry.revision})`
    : `the recipe in ${path.relative(process.cwd(), task.file)}`;
  const secrets = secretNamesIn(JSON.stringify(steps));
  // The auth profile is read only for the sites of a secret the steps type: an export without one needs no profile.
  const profileName = secrets.length ? task.spec.auth_profile : undefined;
  const profile = profileName ? loadAuthProfile(tasksDir, profileName) : undefined;
  const secretSites = exportedSecretSites(task.spec, secrets, profile && profileName ? { name: profileName, profile } : undefined);
  const code = specCode({
    task: task.spec,
    steps,
    csvFromSpec: relative(csv),
    inputsFromSpec: relative(path.join(tasksDir, 'inputs', id)),
    origin,
    secretSites,
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  shipValueRules(path.join(path.dirname(file), SHIPPED_VALUES_DIR));
  writeFileAtomic(file, code);
  return { file, csv, steps: steps.length };
}
