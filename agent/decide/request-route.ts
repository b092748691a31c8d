/**
 * The task, sample and attempt a model request serves. It travels as request headers, never in the prompt: the
 * prompt carries only what a model needs (and stays byte-identical for the prompt cache). The API ignores the
 * headers; they route requests in the scripted test model server and let a proxy trace a request to its sample.
 */
export interface RequestRoute {
  taskId: string;
  /** A sample id, or a name for a request that serves several samples (the batch judge's). */
  sampleId: string;
  /** Playwright's retry index: a retried sample starts its conversation afresh. */
  attempt?: number;
}

export const ROUTE_HEADERS = { task: 'x-bwa-task', sample: 'x-bwa-sample', attempt: 'x-bwa-attempt' } as const;

/** Ids may hold any character a CSV cell can; header values may not, so each value is URL-encoded. */
export function routeHeaders(route: RequestRoute | undefined): Record<string, string> {
  if (!route) return {};
  return {
    [ROUTE_HEADERS.task]: encodeURIComponent(route.taskId),
    [ROUTE_HEADERS.sample]: encodeURIComponent(route.sampleId),
    ...(route.attempt !== undefined ? { [ROUTE_HEADERS.attempt]: String(route.attempt) } : {}),
  };
}
