import { z } from 'zod';
import { watchCausedRequests } from '../settle/caused-requests';
import { classifyError } from './errors';
import { ACTION_TIMEOUT_MS, CAUSED_REQUESTS_MS } from './limits';
import { actionNames, getAction, mayStartRequests } from '../registry';
import { recoverFromRateLimit } from '../settle/rate-limited';
import { settlePage, watchNavigation } from '../settle/settle';
import { ActionError, type ActionDefinition, type ActionEnv, type ActionResult, type HandlerOutput, type SettledOutcome } from './types';

export interface ActionCall {
  name: string;
  args: Record<string, unknown>;
}

export interface DispatchOptions {
  timeoutMs?: number;
  settleTimeoutMs?: number;
}

export const DEFAULT_SETTLE_MS = 8_000;

/** Validates, times out, catches, classifies: the loop always gets an ActionResult, never an exception. */
export async function dispatch(call: ActionCall, env: ActionEnv, options: DispatchOptions = {}): Promise<ActionResult> {
  const name = typeof call?.name === 'string' ? call.name : String(call?.name);
  try {
    const action = getAction(name);
    if (!action)
      return { success: false, description: `Unknown action "${name}"`, error: `Unknown action "${name}". Available: ${actionNames().join(', ')}` };
    const parsed = action.schema.safeParse(call.args ?? {});
    if (!parsed.success)
      return {
        success: false,
        description: `Invalid arguments for ${name}`,
        error: `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}`,
      };
    return await run(action, parsed.data, env, options);
  } catch (error) {
    const { message, infra } = classifyError(error, error instanceof ActionError && error.infra);
    const advice = error instanceof ActionError ? error.advice[env.reader] : undefined;
    return { success: false, description: `${name} failed`, error: advice ? `${message} — ${advice}` : message, infra };
  }
}

async function run(action: ActionDefinition, args: unknown, env: ActionEnv, options: DispatchOptions): Promise<ActionResult> {
  const timeoutMs = Math.max(options.timeoutMs ?? ACTION_TIMEOUT_MS, action.timeoutFor?.(args as never) ?? 0);
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(env.signal.reason);
  if (env.signal.aborted) onOuterAbort();
  env.signal.addEventListener('abort', onOuterAbort, { once: true });
  const navigation = watchNavigation(env.page);
  const requests = mayStartRequests(action.name) ? watchCausedRequests(env.page, env.policy.isAllowedUrl) : undefined;
  let timer: NodeJS.Timeout | undefined;
  // Called once: by withSettledNote on the way out, or here in finally when the action ended otherwise.
  let settled: (() => Promise<SettledOutcome>) | undefined;
  const withSettledNote = async (result: ActionResult, check: (() => Promise<SettledOutcome>) | undefined): Promise<ActionResult> => {
    settled = undefined;
    const outcome = check ? await check().catch((): SettledOutcome => ({ note: '' })) : { note: '' };
    if (!result.success) return result;
    return {
      ...result,
      description: `${result.description}${outcome.note}`,
      ...(outcome.shownChange ? { shownChange: outcome.shownChange } : {}),
    };
  };
  try {
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new ActionError(`${action.name} timed out after ${Math.round(timeoutMs / 1000)}s`, true));
        controller.abort(new Error('action timeout'));
      }, timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => reject(new ActionError(`${action.name} stopped: ${String(controller.signal.reason ?? 'aborted')}`));
      if (controller.signal.aborted) onAbort();
      else controller.signal.addEventListener('abort', onAbort, { once: true });
    });
    const { afterSettle, ...output }: HandlerOutput = await Promise.race([
      action.handle(args as never, { ...env, signal: controller.signal }),
      timedOut,
      aborted,
    ]);
    settled = afterSettle;
    const result: ActionResult = { ...output, success: output.success ?? true };
    if (!(action.navigates || navigation.happened())) {
      const loaded = !requests || (await Promise.race([requests.settled(CAUSED_REQUESTS_MS), timedOut, aborted]));
      if (!loaded && result.success) result.description = `${result.description} (the page was still loading after ${CAUSED_REQUESTS_MS / 1000} s)`;
      return await withSettledNote(result, afterSettle);
    }
    const settleMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_MS;
    // A navigation held back by the host's rate limit may not have its response yet: 'load' would be the old page's.
    await Promise.race([navigation.landed(), timedOut, aborted]);
    await settlePage(env.tabs.active, settleMs);
    const limited = navigation.rateLimited();
    // Only a failure that is the 429 itself is retried (goto reports one; a click does not look at statuses).
    if (limited && (result.success || result.httpStatus === 429) && !env.page.isClosed())
      return await recoverFromRateLimit(env.page, limited, env.policy, env.signal, result, settleMs);
    return await withSettledNote(result, afterSettle);
  } finally {
    if (settled) await settled().catch(() => undefined);
    clearTimeout(timer);
    navigation.stop();
    requests?.stop();
    env.signal.removeEventListener('abort', onOuterAbort);
  }
}
