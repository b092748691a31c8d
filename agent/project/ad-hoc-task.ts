import * as path from 'node:path';
import { recipeStepProblems } from '../recipe/check-steps';
import { BwaInputError, formatIssuePath, formatZodIssues } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import { TaskSpecSchema, type RecipeStep, type TaskSpecInput } from '../task/schema';
import { stableHash } from '../task/stable-json';
import { parseType } from '../task/type-grammar';

/** What a hand-written test asks `agent.run` for: a task spec's essentials, in a test's words. */
export interface AgentTask {
  /** What to find or do, and when it is finished, in plain words. */
  goal: string;
  /** Field → type, in the task spec's grammar: "string", "number | null", "yes | no", "array of string". */
  output: Record<string, TaskSpecInput['output_schema'][string]>;
  /** Where to start (default: the test's page as it is, after its own `page.goto`). */
  startUrl?: string;
  /** Hosts the agent may visit (default: the start page's host). */
  allowedDomains?: string[];
  /** Fields that must have a value for the run to be done (default: every field whose type does not allow null). */
  required?: string[];
  /** Standing instructions for the model (default: read carefully, never guess). */
  instructions?: string;
  /** Steps to replay instead of asking the model (the recipe vocabulary of task specs: docs/actions.md). */
  recipe?: RecipeStep[];
  /** Step budget (default 25). */
  maxSteps?: number;
  /** Screenshot labels that must exist when done. */
  requiredScreenshots?: string[];
}

const DEFAULT_INSTRUCTIONS =
  'You are a careful browser agent collecting evidence. Read values from the page; never guess a value the page does not show — leave it null and say why.';

/**
 * The test's ask as a task and one sample: the task named after the test file, the sample after the test's title,
 * so its evidence lands in reports/runs/<run>/<file>/<title>/ beside the generated samples'.
 */
export function adHocTask(
  task: AgentTask,
  test: { testFile: string; titlePath: readonly string[]; currentUrl: string },
): { loaded: LoadedTask; sample: Sample } {
  const startUrl = task.startUrl ?? (test.currentUrl.startsWith('http') ? test.currentUrl : undefined);
  if (!startUrl) throw new BwaInputError('BWA_AGENT_TASK', 'agent.run needs a startUrl, or a page the test already opened (page.goto) to start from');
  const parsed = TaskSpecSchema.safeParse({
    task_id: taskIdOf(test.testFile),
    start_url: startUrl,
    system_prompt: task.instructions ?? DEFAULT_INSTRUCTIONS,
    goal: task.goal,
    output_schema: task.output,
    required_fields: task.required ?? Object.keys(task.output).filter(field => !parseType(task.output[field]).nullable),
    required_artifacts: task.requiredScreenshots ?? [],
    allowed_domains: task.allowedDomains ?? [hostOf(startUrl)],
    ...(task.maxSteps ? { max_steps: task.maxSteps } : {}),
    ...(task.recipe ? { recipe: task.recipe } : {}),
  });
  if (!parsed.success) throw new BwaInputError('BWA_AGENT_TASK', `agent.run in ${test.testFile}: invalid task\n${formatZodIssues(parsed.error, '')}`);
  const stepProblems = recipeStepProblems(parsed.data.recipe ?? []);
  if (stepProblems.length)
    throw new BwaInputError(
      'BWA_RECIPE_STEP',
      `agent.run in ${test.testFile}: invalid recipe\n${stepProblems.map(p => `  • ${formatIssuePath(['recipe', ...p.path])}: ${p.text}`).join('\n')}`,
    );
  const { recipe, ...rest } = parsed.data;
  const sampleId = sampleIdOf(test.titlePath);
  return {
    loaded: { spec: parsed.data, file: test.testFile, hash: stableHash(rest), recipeHash: recipe ? stableHash(recipe) : null },
    sample: { sample_id: sampleId, row: { sample_id: sampleId }, line: 0, source: test.testFile },
  };
}

/** `tests/Pricing Page.spec.ts` → `pricing_page`: a task id (lowercase letters, digits, "_", "-"). */
function taskIdOf(file: string): string {
  const base = path.basename(file).replace(/\.(spec|test)\.[cm]?[jt]sx?$|\.[cm]?[jt]sx?$/, '');
  return slug(base.toLowerCase(), /[^a-z0-9_-]+/g, 64) || 'tests';
}

/** The test's title path (describe blocks and title) as a sample id: letters, digits, ".", "_", "-". */
function sampleIdOf(titlePath: readonly string[]): string {
  return slug(titlePath.join(' '), /[^A-Za-z0-9._-]+/g, 100) || 'test';
}

function slug(text: string, unsafe: RegExp, max: number): string {
  return text
    .replace(unsafe, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, max)
    .replace(/[._-]+$/, '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    throw new BwaInputError('BWA_AGENT_TASK', `agent.run: startUrl "${url}" is not a URL`);
  }
}
