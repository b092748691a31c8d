import * as fs from 'node:fs';
import * as path from 'node:path';
import { openBrowser } from '../browser/remote';
import { describeStep } from '../decide/describe-step';
import { compileRecipe, type CompileInput } from '../recipe/compile';
import { compileFromSamples } from '../recipe/compile-samples';
import { exportRecipe } from '../recipe/export';
import { saveCompiled } from '../recipe/record';
import { chooseSources, readRunSamples } from '../recipe/run-sources';
import { recipeStore } from '../recipe/recipe-store';
import { SampleSession } from '../session';
import { RUN_ID_PATTERN } from '../env/variables';
import { runDir, settings } from '../settings';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile, type LoadedTask } from '../task/load-task';
import { defineCommand, type CommandGroup } from './command';
import { listed } from './listing';

const compileCommand = defineCommand({
  name: 'recipe compile',
  summary: 'compile a recipe from a done sample of a run',
  about: 'The run is a run id (under AGENT_REPORTS_DIR/runs) or the path of a run folder.',
  options: {
    sample: { type: 'string', placeholder: 'sample_id', help: 'the done sample to compile from (default: the one whose recipe holds on the others)' },
  },
  positionals: [{ name: 'run_id' }, { name: 'task_id' }],
  run: ({ args, options }) => compile(args.run_id, args.task_id, options.sample),
});

const exportCommand = defineCommand({
  name: 'recipe export',
  summary: 'write the recipe as a plain Playwright spec',
  options: {
    out: { type: 'string', placeholder: 'file', help: 'where to write the spec' },
    csv: { type: 'string', placeholder: 'file', help: "the samples CSV the spec reads (default: the task's)" },
  },
  positionals: [{ name: 'task_id' }],
  run: async ({ args, options }) => exportSpec(args.task_id, options.out, options.csv),
});

const showCommand = defineCommand({
  name: 'recipe show',
  summary: "print the recipe a run replays: the compiled one, the spec's own",
  options: {},
  positionals: [{ name: 'task_id' }],
  run: async ({ args }) => show(args.task_id),
});

export const recipeCommand: CommandGroup = {
  ...listed('recipe'),
  subcommands: [compileCommand, exportCommand, showCommand],
};

function loadTask(taskId: string): LoadedTask {
  const file = path.join(settings.tasksDir, `${taskId}.json`);
  if (!fs.existsSync(file)) throw new BwaInputError('BWA_TASK_MISSING', `${file}: no such task`);
  return loadTaskFile(file);
}

function runFolder(run: string): string {
  const asPath = path.resolve(run);
  if (fs.existsSync(asPath) && fs.statSync(asPath).isDirectory()) return asPath;
  if (!RUN_ID_PATTERN.test(run)) throw new BwaInputError('BWA_RUN_MISSING', `no run "${run}"`);
  return runDir(run);
}

async function compile(run: string, taskId: string, sampleId?: string): Promise<number> {
  const task = loadTask(taskId);
  const folder = runFolder(run);
  const { source, others } = chooseSources(readRunSamples(folder, taskId), sampleId);
  console.log(
    `compiling ${taskId} from ${source.runId}/${source.sampleId}${others.length ? `, checking on ${others.map(o => o.sampleId).join(', ')}` : ''} …`,
  );
  const browser = await openBrowser();
  try {
    const input: CompileInput = { prepare: options => SampleSession.prepare(options), task, source, others, browser, runId: path.basename(folder) };
    // A source the user named is kept; otherwise another done sample may teach the recipe that holds on all of them.
    const from = sampleId ? { compiled: await compileRecipe(input), source } : await compileFromSamples(input);
    const saved = await saveCompiled(task, from.compiled, from.source, { kind: 'explicit' });
    const entry = saved.entry!;
    console.log(`recipe revision ${entry.revision} → ${path.relative(process.cwd(), saved.location) || saved.location}`);
    entry.steps.forEach((step, i) => console.log(`  ${String(i + 1).padStart(2)}. ${describeStep(step as never)}`));
    for (const v of entry.verified_on) console.log(`  ✓ replayed on ${v.sample_id}: ${v.fields} field(s) reproduced`);
    for (const note of entry.notes) console.log(`  · ${note}`);
    return 0;
  } finally {
    await browser.close();
  }
}

/** The recipe a run replays for the task: the compiled one while fresh, else the spec's own; both when there are both. */
function show(taskId: string): number {
  const task = loadTask(taskId);
  const found = recipeStore().lookup(task);
  const own = task.spec.recipe ?? [];
  const file = path.relative(process.cwd(), task.file) || task.file;
  if (found.hit) {
    const { entry } = found;
    console.log(
      `${taskId}: compiled recipe, revision ${entry.revision}, compiled ${entry.compiled_at} from ${entry.source.run_id}/${entry.source.sample_id} (fresh for this task spec and its own recipe; it replays instead of the spec's own while fresh)`,
    );
    entry.steps.forEach((step, i) => console.log(`  ${String(i + 1).padStart(2)}. ${describeStep(step)}`));
    for (const [field, binding] of Object.entries(entry.fields))
      console.log(`  ${field}: ${binding.how}${binding.locator ? ` ← ${binding.locator}` : ''}${binding.pattern ? ` /${binding.pattern}/` : ''}`);
  }
  if (own.length) {
    console.log(
      `${taskId}: the spec's own recipe (${file}), ${own.length} steps — ${found.hit ? 'replayed when the compiled one is stale or gone' : 'replayed with no model call while its steps work; with a key the model heals a step that fails (not with AGENT_DECIDER=recipe); AGENT_DECIDER=model does not use it'}`,
    );
    own.forEach((step, i) => console.log(`  ${String(i + 1).padStart(2)}. ${describeStep(step)}`));
  }
  if (found.hit || own.length) {
    if (!found.hit) console.log(`  compiled: none usable at ${path.relative(process.cwd(), found.location) || found.location} (${found.reason})`);
    return 0;
  }
  console.log(
    `${taskId}: no recipe — ${file} has none, and none is compiled at ${path.relative(process.cwd(), found.location) || found.location} (${found.reason}): add "recipe" to the spec, or record one (AGENT_RECORD=1, or npx bwa recipe compile <run_id> ${taskId})`,
  );
  return 1;
}

function exportSpec(taskId: string, out?: string, csv?: string): number {
  const task = loadTask(taskId);
  const written = exportRecipe(task, { out, csv });
  console.log(
    `wrote ${path.relative(process.cwd(), written.file) || written.file} (${written.steps} steps, samples from ${path.relative(process.cwd(), written.csv) || written.csv})`,
  );
  console.log(`run it: npx playwright test ${path.relative(process.cwd(), written.file)} (with a config whose testDir includes it)`);
  return 0;
}
