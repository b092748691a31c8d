import * as fs from 'node:fs';
import { checkEnvironment, env, placeholderValuesFromEnv, secretsFromEnv } from '../env/read';
import { secretWarnings } from '../secrets/advice';
import { notSet, secretNamesIn, unsetPlaceholders } from '../secrets/placeholders';
import { authoredTexts } from '../task/authored-text';
import { checkRecipeSteps } from '../recipe/check-steps';
import { defineCommand } from './command';
import { listed } from './listing';
import { FILL_IN } from './init';
import { compiledRecipe } from '../recipe/recipe-store';
import { planDecider, type DeciderPlan } from '../decide/select-decider';
import { missingSecrets } from '../setup/sign-in';
import { settings } from '../settings';
import { authStatePath, loadAuthProfile, profileSecretNames } from '../task/auth-profile';
import type { LoadedTask } from '../task/load-task';
import { loadSuite, type BrokenTask } from '../task/suite';

export const validateCommand = defineCommand({
  ...listed('validate'),
  options: {},
  positionals: [],
  async run() {
    const envErrors = checkEnvironment();
    if (envErrors.length) {
      for (const error of envErrors) console.log(`✗ ${error.code}: ${error.message}`);
      console.log(`\n${envErrors.length} environment variable(s) a run would refuse to start with (in the environment or .env): fix them first.`);
      return 1;
    }
    const broken: BrokenTask[] = [];
    const suite = loadSuite({ tasksDir: settings.tasksDir, adHocUrl: settings.adHocUrl, checkTask: checkRecipeSteps, onBroken: b => broken.push(b) });
    for (const { taskId, file, error, task } of broken) {
      console.log(`${taskId.padEnd(24)} cannot load · ${file}`);
      console.log(`  ✗ ${error.code}: ${error.message.replace(/\n/g, '\n    ')}`);
      for (const problem of task ? placeholderProblems(task) : []) console.log(`  ✗ ${problem}`);
    }
    if (!suite.length && !broken.length) {
      console.log(
        `no tasks in ${settings.tasksDir} (files whose name starts with "_" are examples and never run): start one with \`npx bwa init <task_id> --url …\`. bwa's commands read the project in the folder they run from: run them beside your Playwright config, or name it: \`npx bwa validate -c e2e/playwright.config.ts\`.`,
      );
      return 0;
    }
    const hasKey = Boolean(env.ANTHROPIC_API_KEY);
    let unrunnable = 0;
    for (const { task, samples, missing, error } of suite) {
      const plan = planDecider(task.spec, settings.decider, hasKey, compiledRecipe(task) !== undefined);
      console.log(
        `${task.spec.task_id.padEnd(24)} ${missing ? 'samples discovered at run time' : `${samples.length} sample${samples.length === 1 ? '' : 's'}`} · ${whoDecides(plan, task)} · ${task.file}`,
      );
      const problems = [
        ...(error ? [error] : []),
        ...placeholderProblems(task),
        ...(plan.kind === 'none' ? [`${plan.problem.code}: ${plan.problem.message}`] : []),
        ...signInProblems(task),
        ...placeholdersNotSet(task),
      ];
      for (const problem of problems) console.log(`  ✗ ${problem}`);
      for (const warning of secretAdvice(task)) console.log(`  ⚠ ${warning}`);
      if (problems.length) unrunnable += 1;
    }
    if (unrunnable)
      console.log(`\n${unrunnable} task(s) cannot run as things stand (their samples would fail with the reasons above); the others can.`);
    if (broken.length)
      console.log(`\n${broken.length} task(s) cannot load: a run leaves them out (one failing "cannot load" test each) until they are fixed.`);
    return broken.length ? 1 : 0;
  },
});

/** Who decides the task's samples as things stand, and so what a sample costs in model calls. */
function whoDecides(plan: DeciderPlan, task: LoadedTask): string {
  const recipe = (source: 'compiled' | 'own') => (source === 'compiled' ? 'recipe (compiled)' : 'recipe (its own)');
  switch (plan.kind) {
    case 'replay':
      return `${recipe(plan.recipe)}, no model call`;
    case 'replay-heal':
      return `${recipe(plan.recipe)}, a model call only where a step fails (self-heal)`;
    case 'model':
      return `model on every step${plan.recipeUnused ? ' (AGENT_DECIDER=model: the recipe is not used)' : ''}`;
    case 'none':
      return task.spec.recipe?.length ? 'recipe' : 'model only';
  }
}

/** Locators `bwa init` left for the user to fill in: the run would end each sample needs_review at that step. */
function placeholderProblems(task: LoadedTask): string[] {
  return (task.spec.recipe ?? []).flatMap((step, index) =>
    JSON.stringify(step.target ?? '').includes(FILL_IN)
      ? [
          `recipe[${index}] (${step.action}${step.field ? ` ${String(step.field)}` : ''}): its target is still "${FILL_IN}" — point it at the element on the page`,
        ]
      : [],
  );
}

/** What would stop the task's sign-in before it starts: no way to sign in, or secrets not set. */
function signInProblems(task: LoadedTask): string[] {
  const name = task.spec.auth_profile;
  if (!name) return [];
  const profile = loadAuthProfile(settings.tasksDir, name);
  if (!profile)
    return fs.existsSync(authStatePath(name))
      ? []
      : [
          `auth_profile "${name}": no tasks/auth/${name}.json and no imported storage state — write one, or run \`npx bwa auth import ${name} <file>\``,
        ];
  const missing = missingSecrets(profile);
  return missing.length ? [`auth_profile "${name}" needs ${missing.join(' and ')} (set in .env)`] : [];
}

/** The task's own {{secret:NAME}} and {{env:NAME}} (its profile's are signInProblems'): unset, a sample would stop at the step. */
function placeholdersNotSet(task: LoadedTask): string[] {
  return unsetPlaceholders(JSON.stringify(task.spec), placeholderValuesFromEnv()).map(use => notSet(use.kind, use.name));
}

/** Secrets the task and its sign-in use whose values would mask the page's own words, or that its own text holds. */
function secretAdvice(task: LoadedTask): string[] {
  const profileName = task.spec.auth_profile;
  const profile = profileName ? loadAuthProfile(settings.tasksDir, profileName) : undefined;
  const names = new Set([...secretNamesIn(JSON.stringify(task.spec)), ...(profile ? profileSecretNames(profile) : [])]);
  const values = secretsFromEnv();
  const authored = authoredTexts(task.spec);
  return [...names].flatMap(name => (values[name] === undefined ? [] : secretWarnings(name, values[name], authored)));
}
