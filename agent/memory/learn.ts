import type { ModelClient } from '../decide/model-client';
import { env } from '../env/read';
import type { ActionLogEntry, Result, Usage } from '../evidence/result-schema';
import type { TaskSpec } from '../task/schema';
import { distillPatterns, heuristicPatterns, heuristicWarnings } from './distill';
import type { RunMemory } from './run-memory';

const DISTILL_TIMEOUT_MS = 30_000;

/** After a sample: done → patterns (fast model, heuristic fallback); failed or partial → warnings. Never throws. */
export async function learnFromSample(
  memory: RunMemory,
  task: TaskSpec,
  result: Result,
  log: readonly ActionLogEntry[],
  client: ModelClient | undefined,
  onUsage: (usage: Usage) => void,
): Promise<string | undefined> {
  try {
    if (result.status === 'done') {
      let patterns;
      try {
        if (!client || !env.AGENT_MEMORY_DISTILL) throw new Error('heuristic only');
        const known = memory.tips(task.task_id).map(t => t.tip);
        patterns = await distillPatterns(client, task, result, log, known, AbortSignal.timeout(DISTILL_TIMEOUT_MS), onUsage);
      } catch {
        patterns = heuristicPatterns(task, result, log);
      }
      await memory.addPatterns(patterns);
    } else if (result.status === 'failed' || result.status === 'partial_success') {
      await memory.addWarnings(heuristicWarnings(task, result, log));
    }
    return undefined;
  } catch (error) {
    return `run memory not updated: ${error instanceof Error ? error.message : String(error)}`;
  }
}
