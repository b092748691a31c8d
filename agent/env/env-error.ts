import type { EnvName } from './variables';

/**
 * A variable whose text its schema rejects: the message names the variable and what it takes (never a secret's
 * value). On its own, without the schema, so the command line can tell it apart before any command loads.
 */
export class EnvError extends Error {
  readonly code = 'BWA_ENV';
  constructor(
    readonly variable: EnvName,
    message: string,
  ) {
    super(message);
    this.name = 'EnvError';
  }
}
