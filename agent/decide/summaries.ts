import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../evidence/result-schema';
import { formatEntry } from './history';
import { ACCUMULATED_PROMPT_CHARS, truncateJson } from './prompt';
import type { ModelClient } from './model-client';
import type { RequestRoute } from './request-route';
import type { HistoryEntry } from './types';

export const SUMMARY_EVERY_STEPS = 10;
const KEEP_RECENT_STEPS = 5;
const SUMMARIES_SHOWN = 3;

/**
 * Every 10 steps, the steps that have left the recent window are condensed into FOUND / GAPS / NEXT by the fast
 * model (mechanically when it fails), so a 50-step task keeps its early findings without carrying every step. The
 * request shows what the steps came to, not only what was done: each step's outcome, the page it left the agent on
 * when that moved, and the data collected so far.
 */
export class StepSummarizer {
  private readonly summaries: string[] = [];
  /** Steps up to and including this one are covered by a summary. */
  summarizedThrough = 1;

  constructor(
    private readonly client: ModelClient | undefined,
    private readonly goal: string,
    private readonly onUsage: (usage: Usage) => void,
    /** The sample the summary is for. */
    private readonly route?: RequestRoute,
  ) {}

  get shown(): string[] {
    return this.summaries.slice(-SUMMARIES_SHOWN);
  }

  async update(
    step: number,
    history: readonly HistoryEntry[],
    signal: AbortSignal,
    collected: Readonly<Record<string, unknown>> = {},
  ): Promise<void> {
    if (step < SUMMARY_EVERY_STEPS || step % SUMMARY_EVERY_STEPS !== 0) return;
    const until = step - KEEP_RECENT_STEPS;
    const entries = history.filter(e => !e.meta && e.step > this.summarizedThrough && e.step <= until);
    if (entries.length === 0) return;
    const from = entries[0]!.step;
    const lines = summaryLines(history, entries);
    let body: string;
    try {
      body = await this.summarizeWithModel(lines, collected, signal);
    } catch {
      body = mechanicalSummary(entries);
    }
    this.summaries.push(`Steps ${from}-${until}:\n${body}`);
    this.summarizedThrough = until;
  }

  private async summarizeWithModel(lines: string[], collected: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<string> {
    if (!this.client) throw new Error('no model client');
    const reply = await this.client.create(
      {
        max_tokens: 300,
        messages: [
          {
            role: 'user',
            content: `Summarize these browser-agent steps for the agent itself, in exactly three lines:\nFOUND: verified facts and data collected\nGAPS: what is still missing for the goal\nNEXT: the next concrete actions\n\nGoal: ${this.goal}\n\nSteps (each with its outcome):\n${lines.join('\n')}\n\nData collected so far: ${truncateJson(collected, ACCUMULATED_PROMPT_CHARS)}`,
          },
        ],
      },
      { purpose: 'summary', model: this.client.settings.fastModel, signal, allowFallback: false, route: this.route, authored: [this.goal] },
    );
    this.onUsage(reply.usage);
    const text = reply.message.content
      .filter((b): b is Anthropic.TextBlock => b.type === 'text')
      .map(b => b.text)
      .join('\n')
      .trim();
    if (!/FOUND:/i.test(text)) throw new Error('summary not in FOUND/GAPS/NEXT form');
    return text;
  }
}

/** Each step with its outcome, and the page it left the agent on when it moved to another one. */
export function summaryLines(history: readonly HistoryEntry[], entries: readonly HistoryEntry[]): string[] {
  const real = history.filter(e => !e.meta);
  return entries.map(entry => {
    const before = real[real.indexOf(entry) - 1];
    const moved = before !== undefined && before.url !== entry.url ? ` [now on ${entry.url}]` : '';
    return `${formatEntry(entry, true, true)}${moved}`;
  });
}

/** The fallback: what was read and saved (FOUND), what failed (GAPS), and where the agent was heading (NEXT). */
export function mechanicalSummary(entries: readonly HistoryEntry[]): string {
  const found = entries
    .filter(e => e.result.success && (e.result.effects?.extracted || e.result.effects?.progress || e.result.effects?.artifact))
    .map(e => e.result.description.slice(0, 80));
  const gaps = entries.filter(e => !e.result.success).map(e => `${e.action.name} failed (${(e.result.error ?? '').slice(0, 60)})`);
  const next = [...entries].reverse().find(e => e.reflection?.next_goal)?.reflection?.next_goal;
  return [
    `FOUND: ${found.join('; ') || 'nothing new'}`,
    `GAPS: ${gaps.join('; ') || 'none recorded'}`,
    `NEXT: ${next ?? 'continue with the goal'}`,
  ].join('\n');
}
