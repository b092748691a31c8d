import type Anthropic from '@anthropic-ai/sdk';
import { lookupModel } from '../decide/model-capabilities';
import { ModelCallError, ModelClient } from '../decide/model-client';
import { usageCost } from '../decide/model-cost';
import { modelSettings, type ModelSettings } from '../decide/model-settings';
import { describeRules } from '../decide/request-shape';
import { lastRunUsage } from '../report/last-run-usage';
import { env } from '../env/read';
import { settings } from '../settings';
import { BwaInputError } from '../task/input-errors';
import { defineCommand } from './command';
import { listed } from './listing';

/** The request's route: the task header names the check (a scripted model server answers it from a script). */
export const CHECK_ROUTE = { taskId: 'bwa_check', sampleId: '' };
const CHECK_TOOL = 'ok';

export const checkCommand = defineCommand({
  ...listed('check'),
  about:
    'Sends one minimal request with the configured ANTHROPIC_API_KEY, AGENT_MODEL and AGENT_EFFORT (to ANTHROPIC_BASE_URL when set: a proxy or gateway), shaped as a decision request is, and prints the model, the rules its requests follow, and — for each task whose last run has usage figures — what 1,000 model-decided samples cost at list price with AGENT_MODEL and AGENT_FAST_MODEL. Exit 1 when the request is refused.',
  options: {},
  positionals: [],
  async run() {
    let model: ModelSettings;
    try {
      model = modelSettings();
    } catch (error) {
      throw new BwaInputError('BWA_MODEL_SETTINGS', (error as Error).message);
    }
    const wish = { effort: model.effort, effortToUnknown: model.effortExplicit, answerTokens: model.maxTokens };
    console.log(`AGENT_MODEL ${model.model}`);
    for (const line of describeRules(model.model, wish)) console.log(`  ${line}`);
    console.log(
      `AGENT_FAST_MODEL ${model.fastModel} (step summaries, run-memory tips)${lookupModel(model.fastModel).known ? '' : ': not in bwa’s model table'}`,
    );
    if (model.fallbackModel)
      console.log(`AGENT_FALLBACK_MODEL ${model.fallbackModel}${lookupModel(model.fallbackModel).known ? '' : ': not in bwa’s model table'}`);
    if (!env.ANTHROPIC_API_KEY)
      throw new BwaInputError('BWA_NO_API_KEY', 'bwa check sends a request: set ANTHROPIC_API_KEY (in the environment or .env)');
    // The API's own address, or the proxy or gateway ANTHROPIC_BASE_URL names.
    const base = env.ANTHROPIC_BASE_URL;
    const client = new ModelClient(model);
    try {
      const reply = await client.create(
        {
          system: `You check that the API accepts this configuration. Call the ${CHECK_TOOL} tool.`,
          tools: [{ name: CHECK_TOOL, description: 'Say the request arrived.', input_schema: { type: 'object', properties: {} } } as Anthropic.Tool],
          tool_choice: { type: 'any' },
          messages: [{ role: 'user', content: `Call ${CHECK_TOOL}.` }],
        },
        { purpose: 'decide', allowFallback: false, route: CHECK_ROUTE },
      );
      const u = reply.message.usage;
      const thinking = u.output_tokens_details?.thinking_tokens;
      console.log(
        `✓ ${base} accepted the request: ${reply.message.model} answered with ${reply.message.content.map(b => b.type).join(', ') || 'nothing'} (stop_reason ${reply.message.stop_reason}; output ${u.output_tokens} tokens${thinking ? `, ${thinking} of them thinking` : ''})`,
      );
    } catch (error) {
      if (!(error instanceof ModelCallError)) throw error;
      console.error(`✗ ${base}: ${error.message}`);
      return 1;
    }
    printCosts(model);
    return 0;
  },
});

function printCosts(model: ModelSettings): void {
  const tasks = lastRunUsage(settings.reportsDir);
  if (tasks.length === 0) {
    console.log(`No run under ${settings.reportsDir} has usage figures yet: run a few samples with the model, then check again for costs.`);
    return;
  }
  console.log(
    `Estimated list price per 1,000 model-decided samples (AGENT_MODEL ${model.model}, AGENT_FAST_MODEL ${model.fastModel}), from each task's last run:`,
  );
  console.log(
    '  (a task with a recipe — its own or a compiled one — replays it with no model call; the model is paid only where a step fails and it heals the sample: npx bwa validate says who decides each task)',
  );
  for (const task of tasks) {
    const perSample = usageCost(task.total, { main: model.model, fast: model.fastModel });
    const calls = (task.total.model_calls / task.samples).toFixed(1);
    const price = perSample === undefined ? 'unknown (a model without prices in bwa’s table)' : `$${((perSample / task.samples) * 1000).toFixed(2)}`;
    console.log(`  ${task.taskId}: ${price} — ${calls} model calls per sample, over ${task.samples} sample(s) of run ${task.runId}`);
  }
}
