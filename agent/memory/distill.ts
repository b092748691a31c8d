import type Anthropic from '@anthropic-ai/sdk';
import type { ModelClient } from '../decide/model-client';
import { sampleContext } from '../decide/prompt';
import type { ActionLogEntry, Result, Usage } from '../evidence/result-schema';
import type { TaskSpec } from '../task/schema';
import { tokenize, type Pattern, type Warning } from './run-memory';

const MAX_TIPS = 3;

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
}

/** Values that belong to this sample (its input and what was read) must not become advice for other samples. */
function sampleValues(result: Result): string[] {
  const values = [...Object.values(result.input), ...Object.values(result.extracted).map(f => (typeof f.value === 'string' ? f.value : ''))];
  return values.filter(v => v.length >= 3);
}

function generalize(element: string | undefined, specific: readonly string[]): string {
  if (!element) return '';
  if (specific.some(v => element.includes(v))) return element.split(' ')[0] ?? '';
  return element;
}

/** The recipe of a done sample, with sample-specific names removed: a generic route through the site. */
export function heuristicPatterns(task: TaskSpec, result: Result, log: readonly ActionLogEntry[]): Pattern[] {
  const specific = sampleValues(result);
  const route = log
    .filter(e => e.outcome.success && e.decider !== 'loop' && !['done', 'fail'].includes(e.action.name))
    .map(e => {
      const field = e.action.name === 'extract' ? ` ${String(e.action.args.field)}` : '';
      const element = generalize(e.element, specific);
      return `${e.action.name}${field}${element ? ` (${element})` : ''}`;
    });
  if (route.length === 0) return [];
  const tip = `A route that worked (${route.length} actions): ${route.slice(0, 14).join(' → ')}${route.length > 14 ? ' → …' : ''}`;
  return [{ task_id: task.task_id, host: hostOf(log[0]?.url_after), tip, keywords: tokenize(`${task.goal} ${route.join(' ')}`), from_sample: result.sample_id, at: new Date().toISOString() }];
}

/** What went wrong in a failed or partial sample: dead URLs, targets that failed repeatedly, the reason. */
export function heuristicWarnings(task: TaskSpec, result: Result, log: readonly ActionLogEntry[]): Warning[] {
  const warnings: string[] = [];
  for (const entry of log) {
    if (!entry.outcome.success && entry.action.name === 'goto') warnings.push(`${String(entry.action.args.url)} failed: ${(entry.outcome.error ?? '').slice(0, 80)}`);
  }
  const failures = new Map<string, number>();
  for (const entry of log.filter(e => !e.outcome.success && e.action.args.target !== undefined)) {
    const key = `${entry.action.name} ${JSON.stringify(entry.action.args.target)}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  }
  for (const [key, count] of failures) if (count >= 2) warnings.push(`${key} failed ${count} times`);
  if (result.error) warnings.push(`ended ${result.status}: ${result.error.slice(0, 120)}`);
  const host = hostOf(log[0]?.url_after);
  const at = new Date().toISOString();
  return [...new Set(warnings)].slice(0, 5).map(warning => ({ task_id: task.task_id, host, warning, keywords: tokenize(`${task.goal} ${warning}`), from_sample: result.sample_id, at }));
}

/** The fast model turns a done sample's log into a few generic tips; the heuristic route is the fallback. */
export async function distillPatterns(client: ModelClient, task: TaskSpec, result: Result, log: readonly ActionLogEntry[], signal: AbortSignal, onUsage: (u: Usage) => void): Promise<Pattern[]> {
  const steps = log.map(e => `${e.step}. ${e.action.name}${e.element ? ` ${e.element}` : ''} → ${e.outcome.success ? 'ok' : `FAILED ${e.outcome.error ?? ''}`}`.slice(0, 200));
  const reply = await client.create(
    {
      max_tokens: 300,
      system: sampleContext(task.task_id, result.sample_id, result.attempt),
      messages: [
        {
          role: 'user',
          content: `A browser agent finished one sample of a task. Write at most ${MAX_TIPS} short navigation tips (one per line, starting with "- ") that would help it on OTHER samples of the same task. Generic only: no names, numbers or values specific to this sample.\n\nTask goal: ${task.goal}\n\nSteps:\n${steps.join('\n')}`,
        },
      ],
    },
    { purpose: 'memory', model: client.settings.fastModel, signal, allowFallback: false },
  );
  onUsage(reply.usage);
  const text = reply.message.content.filter((b): b is Anthropic.TextBlock => b.type === 'text').map(b => b.text).join('\n');
  const specific = sampleValues(result);
  const tips = text
    .split('\n')
    .map(line => line.replace(/^\s*[-*•]\s*/, '').trim())
    .filter(line => line.length > 5 && !specific.some(v => line.includes(v)))
    .slice(0, MAX_TIPS);
  if (tips.length === 0) throw new Error('no usable tips');
  const host = hostOf(log[0]?.url_after);
  const at = new Date().toISOString();
  return tips.map(tip => ({ task_id: task.task_id, host, tip, keywords: tokenize(`${task.goal} ${tip}`), from_sample: result.sample_id, at }));
}
