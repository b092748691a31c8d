import { runDir, settings } from '../settings';
import { StartFailures } from './start-failures';

/** Why this task's samples cannot run in this invocation, or undefined: set up before the run, or its site died. */
export function sampleBlocker(taskId: string): string | undefined {
  return settings.taskBlockers[taskId] ?? startFailuresOf(taskId).blocked();
}

export function startFailuresOf(taskId: string): StartFailures {
  return new StartFailures(runDir(settings.runId), taskId, settings.invocationId, settings.stopAfterStartFailures);
}
