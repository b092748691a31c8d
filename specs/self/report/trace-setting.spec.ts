import { expect, test } from '@playwright/test';
import { settings } from '../../../agent/settings';
import { withEnv } from '../helpers/env';

test('AGENT_TRACE is on, off or retain-on-failure (the default); anything else is an error naming the choices', () => {
  withEnv({ AGENT_TRACE: undefined }, () => {
    expect(settings.trace).toBe('retain-on-failure');
    for (const value of ['on', 'off', 'retain-on-failure', 'OFF']) {
      process.env.AGENT_TRACE = value;
      expect(settings.trace).toBe(value.toLowerCase());
    }
    process.env.AGENT_TRACE = 'always';
    expect(() => settings.trace).toThrow('AGENT_TRACE must be on, off or retain-on-failure (got "always")');
  });
});
