import { z } from 'zod';
import { conciseError, isInfraError } from './errors';
import { actionNames, getAction } from './registry';
import { ActionError, type ActionEnv, type ActionResult } from './types';

export interface ActionCall {
  name: string;
  args: Record<string, unknown>;
}

export interface DispatchOptions {
  timeoutMs?: number;
  settleTimeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_SETTLE_MS = 8_000;

/** Validates, times out, catches, classifies: the loop always gets an ActionResult, never an exception. */
export async function dispatch(call: ActionCall, env: ActionEnv, options: DispatchOptions = {}): Promise<ActionResult> {
  const action = getAction(call.name);
  if (!action) return { success: false, description: `Unknown action "${call.name}"`, error: `Unknown action "${call.name}". Available: ${actionNames().join(', ')}` };
  const parsed = action.schema.safeParse(call.args ?? {});
  if (!parsed.success) return { success: false, description: `Invalid arguments for ${call.name}`, error: `Invalid arguments for ${call.name}:\n${z.prettifyError(parsed.error)}` };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(env.signal.reason);
  env.signal.addEventListener('abort', onOuterAbort, { once: true });
  const urlBefore = safeUrl(env);
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ActionError(`${call.name} timed out after ${Math.round(timeoutMs / 1000)}s`, true));
      }, timeoutMs);
    });
    const output = await Promise.race([action.handle(parsed.data, { ...env, signal: controller.signal }), timeout]);
    const result: ActionResult = { ...output, success: output.success ?? true };
    if (result.success && (action.navigates || safeUrl(env) !== urlBefore)) await settle(env, options.settleTimeoutMs ?? DEFAULT_SETTLE_MS);
    return result;
  } catch (error) {
    const message = conciseError(error);
    const infra = error instanceof ActionError ? error.infra || isInfraError(message) : isInfraError(message);
    return { success: false, description: `${call.name} failed`, error: message, infra };
  } finally {
    clearTimeout(timer);
    env.signal.removeEventListener('abort', onOuterAbort);
  }
}

/** Load plus a quiet network, bounded: SPAs that poll forever must not stall the loop. */
async function settle(env: ActionEnv, timeoutMs: number): Promise<void> {
  const page = env.tabs.active;
  const deadline = Date.now() + timeoutMs;
  await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => {});
  await page.waitForLoadState('networkidle', { timeout: Math.max(500, Math.min(3_000, deadline - Date.now())) }).catch(() => {});
}

function safeUrl(env: ActionEnv): string {
  try {
    return env.tabs.active.url();
  } catch {
    return '';
  }
}
