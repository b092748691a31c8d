/** Infrastructure failures say nothing about the agent's choice; they feed the network circuit breaker. */
const INFRA_PATTERNS = [
  /net::ERR_(?!BLOCKED_BY_CLIENT|ABORTED)/,
  /\bE(CONNREFUSED|CONNRESET|NOTFOUND|TIMEDOUT|PIPE)\b/,
  /getaddrinfo/,
  /(page|target|browser|context) (has been )?(closed|crashed)/i,
  /Target crashed|Page crashed|renderer.*crash/i,
  /SSL|CERT_|certificate/i,
  /Navigation timeout|navigating to .* timed out|page\.goto: Timeout/i,
];

const PAGE_GONE = /Target page, context or browser has been closed|Target closed|Target crashed|Page crashed/i;

/** The tab itself is gone (closed or crashed): nothing on it can be found or acted on. */
export function isPageGone(error: unknown): boolean {
  return PAGE_GONE.test(error instanceof Error ? error.message : String(error));
}

export function isInfraError(message: string): boolean {
  return INFRA_PATTERNS.some(pattern => pattern.test(message));
}

/** What the call log says about why an element could not be acted on, turned into the next thing to try. */
const ACTIONABILITY_HINTS: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
  [
    /(<[^<>]{1,160}>)(?:…<\/\w+>)? (?:from (<[^<>]{1,160}>)(?:…<\/\w+>)? subtree )?intercepts pointer events/,
    m => `another element (${m[2] ?? m[1]}) is covering it — close the dialog or overlay first`,
  ],
  [/element is not visible/, () => 'it is not visible — open the menu, tab or section that holds it, or scroll to it'],
  [/element is not enabled|element is disabled/, () => 'it is disabled — fill in what it depends on first'],
  [/element is not editable/, () => 'it is read-only — look for the control that sets its value (a picker or a button)'],
  [/element is outside of the viewport/, () => 'it is outside the viewport — scroll to it'],
  [/element is not stable/, () => 'it keeps moving (animation) — wait a moment and retry'],
  [/Element is not attached to the DOM|element was detached from the DOM/i, () => 'it was removed from the page while acting — take a fresh look'],
];

export const PAGE_GONE_MESSAGE = 'The page was closed or crashed — switch to another tab or open the start URL again';

const KNOWN_FAILURES: Array<[RegExp, string]> = [
  [/Target page, context or browser has been closed|Target closed|has been closed|Target crashed/i, PAGE_GONE_MESSAGE],
  [
    /Frame was detached|frame got detached|Invalid frame in aria-ref selector/i,
    'The frame holding that element was removed (detached) — take a fresh look at the page',
  ],
  [/Execution context was destroyed/i, 'The page navigated while acting — take a fresh look at the new page'],
  [/net::ERR_BLOCKED_BY_CLIENT/, "Refused: that navigation leads outside the task's allowed domains — stay on the task's sites"],
  [/net::ERR_TOO_MANY_REDIRECTS/, 'The page redirects in a loop (too many redirects) — this URL cannot be opened; find another way to the content'],
  [/Download is starting/, 'That URL is a file download — use the download action on the link instead'],
];

/**
 * Playwright errors carry a long call log; the model needs the first line plus the one call-log fact that
 * says why (an overlay, a hidden or disabled element), phrased as what to do next.
 */
export function conciseError(error: unknown): string {
  const message = stripAnsi(error instanceof Error ? error.message : String(error));
  const [head = message, callLog = ''] = message.split('\nCall log:');
  for (const [pattern, text] of KNOWN_FAILURES) if (pattern.test(message)) return text;
  const hint = actionabilityHint(callLog);
  const firstLine = head.trim().slice(0, 500);
  return hint ? `${firstLine} — ${hint}` : firstLine;
}

function actionabilityHint(callLog: string): string | undefined {
  let latest: { at: number; text: string } | undefined;
  for (const [pattern, explain] of ACTIONABILITY_HINTS) {
    // The last retry's reason is the current state of the page.
    for (const match of callLog.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
      if (!latest || match.index > latest.at) latest = { at: match.index, text: explain(match) };
    }
  }
  return latest?.text;
}

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

export interface ClassifiedError {
  message: string;
  infra: boolean;
}

/** The raw message decides infra vs logic; the concise one is what the model reads. */
export function classifyError(error: unknown, infraHint = false): ClassifiedError {
  // Only the error itself decides, not the call log (which may mention a navigation the action waited for).
  const head = stripAnsi(error instanceof Error ? error.message : String(error)).split('\nCall log:')[0] ?? '';
  return { message: conciseError(error), infra: infraHint || isInfraError(head) };
}
