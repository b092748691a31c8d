/**
 * An error Playwright prints as its message alone, with no stack or code frame: a sample's failure is the agent's
 * finding about the page or the task, and a frame of the fixture that reports it would only bury it.
 */
export function oneLineError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}
