/** How long one action may take in all (an action that needs longer, a download, says so itself); a fixture option overrides it. */
export const ACTION_TIMEOUT_MS = 60_000;
/** How long an action waits for its element to become actionable before telling the model why not. */
export const ELEMENT_TIMEOUT_MS = 8_000;
/** Options of a dependent select or a custom listbox may load after the previous choice. */
export const OPTIONS_WAIT_MS = 10_000;
export const DOWNLOAD_TIMEOUT_S = 30;
export const MAX_DOWNLOAD_TIMEOUT_S = 300;
/** How long an action waits on what the page already says (covered, hidden, disabled, read-only) before saying so. */
export const FAIL_FAST_MS = 800;
/**
 * A one-shot read in the page (what covers an element, where it is hidden): a healthy page answers in
 * milliseconds, a loaded machine in seconds. Only a hung page waits this long, and it would fail anyway.
 */
export const PAGE_READ_MS = 5_000;
/** Page handlers (input, change) that rewrite or refuse a value run on the event or just after it: read after them. */
export const HANDLERS_MS = 20;
/** How long an action waits for the data requests it started (a list's next page, suggestions) before the page is read. */
export const CAUSED_REQUESTS_MS = 3_000;
/** A screenshot of the full page (up to the height cap), and of the window or one element: over this, the window alone is saved or the shot fails. */
export const SHOT_TIMEOUTS = { fullPageMs: 30_000, viewportMs: 15_000, elementMs: 15_000 };
