type Wrappable = { _wrapApiCall?: <T>(call: () => Promise<T>, options: { internal: boolean }) => Promise<T> };

/**
 * Runs Playwright calls as internal ones, which traces do not record. A trace stores every call's result, and
 * an AI snapshot's result holds each field's current value — a typed `{{secret:NAME}}` included (the trace's DOM
 * snapshots are masked by secret-fill, but the snapshot is read in Playwright's utility world, past that mask).
 * Relies on Playwright's `_wrapApiCall`; without it the calls run as they are.
 */
export function untraced<T>(page: unknown, call: () => Promise<T>): Promise<T> {
  const wrap = (page as Wrappable | undefined)?._wrapApiCall;
  return typeof wrap === 'function' ? (wrap.call(page, call, { internal: true }) as Promise<T>) : call();
}
