/** Infrastructure failures say nothing about the agent's choice; they feed the network circuit breaker. */
const INFRA_PATTERNS = [
  /net::ERR_/,
  /\bE(CONNREFUSED|CONNRESET|NOTFOUND|TIMEDOUT|PIPE)\b/,
  /getaddrinfo/,
  /(page|target|browser|context) (has been )?(closed|crashed)/i,
  /Target crashed|Page crashed|renderer.*crash/i,
  /SSL|CERT_|certificate/i,
  /Navigation timeout|navigating to .* timed out|page\.goto: Timeout/i,
];

export function isInfraError(message: string): boolean {
  return INFRA_PATTERNS.some(pattern => pattern.test(message));
}

/** Playwright errors carry a long call log; the model needs the first line and the hint, not the log. */
export function conciseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstBlock = message.split('\nCall log:')[0] ?? message;
  return firstBlock.replace(/\u001b\[[0-9;]*m/g, '').trim().slice(0, 600);
}
