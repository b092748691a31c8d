/** Rejects as soon as the signal aborts, for Playwright calls that take no signal (evaluate, screenshot). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  // The page call keeps running after we stop waiting; its late failure must not surface as unhandled.
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      value => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // oxlint-disable-next-line typescript/prefer-promise-reject-errors -- the page call's own failure, passed on as it came
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(reason === undefined ? 'observe() was aborted' : String(reason));
}
