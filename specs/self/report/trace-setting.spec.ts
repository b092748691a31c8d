import { expect, test } from '@playwright/test';
import { settings } from '../../../agent/settings';
import { restoreEnv } from '../helpers/agent-env';

test('AGENT_TRACE is on, off or retain-on-failure (the default); anything else is an error naming the choices', () => {
  const saved = { AGENT_TRACE: process.env.AGENT_TRACE };
  try {
    delete process.env.AGENT_TRACE;
    expect(settings.trace).toBe('retain-on-failure');
    for (const value of ['on', 'off', 'retain-on-failure', 'OFF']) {
      process.env.AGENT_TRACE = value;
      expect(settings.trace).toBe(value.toLowerCase());
    }
    process.env.AGENT_TRACE = 'always';
    expect(() => settings.trace).toThrow('AGENT_TRACE must be on, off or retain-on-failure (got "always")');
  } finally {
    restoreEnv(saved);
  }
});
