import { runDir, settings } from '../settings';
import { ModelRejections, StartFailures } from './start-failures';

/** Why this task's samples cannot run in this invocation, or undefined: set up before the run, or its site died. */
export function sampleBlocker(taskId: string): string | undefined {
  return settings.taskBlockers[taskId] ?? startFailuresOf(taskId).blocked();
}

export function startFailuresOf(taskId: string): StartFailures {
  return new StartFailures(runDir(settings.runId), taskId, settings.invocationId, settings.stopAfterStartFailures);
}

/** The run-wide record of the model configuration's first answer (shared by every worker and task). */
export function modelRejections(): ModelRejections {
  return new ModelRejections(runDir(settings.runId), settings.invocationId);
}
