import { authoredTextsOf } from '../task/authored-text';
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelClient } from '../decide/model-client';
import type { ActionLogEntry, Result, Usage } from '../evidence/result-schema';
import { templateString } from '../recipe/templatize';
import type { TaskSpec } from '../task/schema';
import { efficientRoute, holdsValue, phraseStep, routeTip, sampleValues, type SampleValues } from './route';
import { tokenize, type Pattern, type Warning } from './run-memory';

const MAX_TIPS = 3;
/** A selector the model guessed (`css=…`, `#id`, `.class`, `[attr=…]`) is no hint: it only names one page. */
const SELECTOR = /css=|(?:^|\s)[#.][A-Za-z][\w-]*|\[[\w-]+[~|^$*]?=|\b(?:f\d+)?e\d+\b/;
/** A phone number or an email address the model copied from the sample's pages: another sample's page shows another. */
const PAGE_VALUE = /\+?\d[\d\s().-]{6,}\d|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
}

/** A hint another sample can use: no value of this sample or of its pages, no selector, no ref. */
export function isGeneralHint(text: string, values: SampleValues): boolean {
  return text.length > 5 && !holdsValue(text, values) && !SELECTOR.test(text) && !PAGE_VALUE.test(text);
}

function pattern(task: TaskSpec, result: Result, log: readonly ActionLogEntry[], tip: string): Pattern {
  return {
    task_id: task.task_id,
    host: hostOf(log[0]?.url_after),
    tip,
    keywords: tokenize(`${task.goal} ${tip}`),
    from_sample: result.sample_id,
    at: new Date().toISOString(),
  };
}

/** The efficient route of a done sample, phrased so any sample of the task can follow it. */
export function heuristicPatterns(task: TaskSpec, result: Result, log: readonly ActionLogEntry[]): Pattern[] {
  const tip = routeTip(efficientRoute(result, log), sampleValues(task, result, log));
  return tip ? [pattern(task, result, log, tip)] : [];
}

/** What went wrong in a failed or partial sample: dead URLs, targets that failed repeatedly, the reason — without its values. */
export function heuristicWarnings(task: TaskSpec, result: Result, log: readonly ActionLogEntry[]): Warning[] {
  const values = sampleValues(task, result, log);
  const warnings: string[] = [];
  for (const entry of log) {
    if (!entry.outcome.success && entry.action.name === 'goto')
      warnings.push(`${phraseStep(entry, values)} failed: ${templateString(entry.outcome.error ?? '', values.row).slice(0, 120)}`);
  }
  const failures = new Map<string, number>();
  for (const entry of log.filter(e => !e.outcome.success && e.action.args.target !== undefined)) {
    const key = phraseStep(entry, values);
    failures.set(key, (failures.get(key) ?? 0) + 1);
  }
  for (const [key, count] of failures) if (count >= 2) warnings.push(`${key} failed ${count} times`);
  if (result.error) warnings.push(`ended ${result.status}: ${templateString(result.error, values.row).slice(0, 120)}`);
  const host = hostOf(log[0]?.url_after);
  const at = new Date().toISOString();
  return [...new Set(warnings)]
    .filter(w => !holdsValue(w, values))
    .slice(0, 5)
    .map(warning => ({ task_id: task.task_id, host, warning, keywords: tokenize(`${task.goal} ${warning}`), from_sample: result.sample_id, at }));
}

/**
 * The fast model turns a done sample's efficient route into a few page-independent tips; a tip that held again
 * is repeated word for word, so the memory can count the samples it held on. The heuristic route is the fallback.
 */
export async function distillPatterns(
  client: ModelClient,
  task: TaskSpec,
  result: Result,
  log: readonly ActionLogEntry[],
  known: readonly string[],
  signal: AbortSignal,
  onUsage: (u: Usage) => void,
): Promise<Pattern[]> {
  const values = sampleValues(task, result, log);
  const walked = efficientRoute(result, log);
  const route = walked.steps.map((entry, i) => `${i + 1}. ${phraseStep(entry, values)}`);
  if (route.length === 0) throw new Error('no route to learn from');
  // Only a route walked as it stands is one that worked; steps kept from a wandering sample are said to be that.
  const which =
    walked.leftOut === 0
      ? 'Below is the route it took, with no failed or wasted step.'
      : `Below are the ${walked.steps.length} steps it kept: its ${walked.leftOut} failed, undone or idle steps are left out, so these were never walked as they stand.`;
  const knownPart = known.length
    ? `\n\nTips already learned on other samples (repeat one word for word if it held here too):\n${known.map(t => `- ${t}`).join('\n')}`
    : '';
  const reply = await client.create(
    {
      max_tokens: 300,
      messages: [
        {
          role: 'user',
          content: `A browser agent finished one sample of a task. ${which} Write at most ${MAX_TIPS} short navigation tips (one per line, starting with "- ") that would help on OTHER samples of the same task: how to get to the data and where it is, in words that hold on any sample's page. No names, numbers or values of this sample; no CSS selectors or element refs.\n\nTask goal: ${task.goal}\n\nRoute:\n${route.join('\n')}${knownPart}`,
        },
      ],
    },
    {
      purpose: 'memory',
      model: client.settings.fastModel,
      signal,
      allowFallback: false,
      route: { taskId: task.task_id, sampleId: result.sample_id, attempt: result.attempt },
      authored: authoredTextsOf(task),
    },
  );
  onUsage(reply.usage);
  const text = reply.message.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map(b => b.text)
    .join('\n');
  const tips = text
    .split('\n')
    .filter(line => /^\s*[-*•]\s+/.test(line))
    .map(line =>
      line
        .replace(/^\s*[-*•]\s+/, '')
        .replace(/\s*\(held on \d+ samples?\)\s*$/, '')
        .trim(),
    )
    .filter(line => isGeneralHint(line, values))
    .slice(0, MAX_TIPS);
  if (tips.length === 0) throw new Error('no usable tips');
  return tips.map(tip => pattern(task, result, log, tip));
}
