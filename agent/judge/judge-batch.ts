import { authoredTextsOf } from '../task/authored-text';
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelClient } from '../decide/model-client';
import { addUsage, emptyUsage, type Result, type Usage } from '../evidence/result-schema';
import { judgmentProblems, valueProblems } from '../loop/judgment';
import type { TaskSpec } from '../task/schema';
import { isPlainObject } from '../loop/merge';
import { fieldsToDecide, JUDGE_SAMPLE_ID, judgeRequest, parseJudgments } from './judge-prompt';

export interface Verdict {
  judgment: Record<string, unknown>;
  /** Values for the sample's fields_to_decide. */
  fields: Record<string, unknown>;
}

export interface BatchVerdict {
  judgments: Map<string, Verdict>;
  /** Sample id → why it has no judgment (after one retry of the samples the first answer left out or got wrong). */
  problems: Map<string, string>;
  usage: Usage;
  model: string;
}

const TOKENS_PER_JUDGMENT = 400;
const asObject = (value: unknown) => (isPlainObject(value) ? value : undefined);
const MAX_REPLY_TOKENS = 8_192;

/** One model call for several samples; the samples it answered badly get one more call of their own. */
export async function judgeSamples(client: ModelClient, task: TaskSpec, samples: readonly Result[], signal?: AbortSignal): Promise<BatchVerdict> {
  const verdict: BatchVerdict = { judgments: new Map(), problems: new Map(), usage: emptyUsage(), model: client.settings.model };
  let open = [...samples];
  for (let round = 0; round < 2 && open.length; round++) {
    const asked = open;
    open = [];
    let answers: Record<string, unknown> | undefined;
    try {
      const maxTokens = Math.min(MAX_REPLY_TOKENS, Math.max(client.settings.maxTokens, TOKENS_PER_JUDGMENT * asked.length));
      const reply = await client.create(judgeRequest(task, asked, maxTokens), {
        purpose: 'judge',
        signal,
        route: { taskId: task.task_id, sampleId: JUDGE_SAMPLE_ID },
        authored: authoredTextsOf(task),
      });
      addUsage(verdict.usage, reply.usage);
      verdict.model = reply.model;
      const text = reply.message.content
        .filter((b): b is Anthropic.TextBlock => b.type === 'text')
        .map(b => b.text)
        .join('\n');
      answers = parseJudgments(text);
      if (!answers)
        for (const sample of asked)
          verdict.problems.set(sample.sample_id, `the judge's answer was not a JSON object (${text.slice(0, 80).replace(/\s+/g, ' ')}…)`);
      if (reply.message.stop_reason === 'max_tokens')
        for (const sample of asked) verdict.problems.set(sample.sample_id, `the judge's answer was cut off at ${maxTokens} tokens`);
    } catch (error) {
      // The SDK already retried: a failed call is not asked again here.
      for (const sample of asked)
        verdict.problems.set(sample.sample_id, `the judge's model call failed: ${error instanceof Error ? error.message : String(error)}`);
      return verdict;
    }
    for (const sample of asked) {
      const answer = asObject(answers?.[sample.sample_id]);
      const judgment = asObject(answer?.judgment);
      const fields = asObject(answer?.fields) ?? {};
      const toDecide = fieldsToDecide(task, sample);
      const problems = [...judgmentProblems(task, judgment), ...toDecide.flatMap(field => fieldProblems(task, field, fields))];
      if (answers && judgment && !problems.length) {
        verdict.judgments.set(sample.sample_id, { judgment, fields: Object.fromEntries(toDecide.map(f => [f, fields[f]])) });
        verdict.problems.delete(sample.sample_id);
        continue;
      }
      if (answers) verdict.problems.set(sample.sample_id, judgment ? problems.join('; ') : 'the judge gave no judgment for it');
      open.push(sample);
    }
  }
  return verdict;
}

function fieldProblems(task: TaskSpec, field: string, fields: Record<string, unknown>): string[] {
  if (!(field in fields)) return [`fields.${field} is missing`];
  if (fields[field] === null && task.required_fields.includes(field)) return [`fields.${field} is required`];
  return valueProblems(`fields.${field}`, task.output_schema[field], fields[field]);
}
