import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EnvError } from '../../../agent/env/env-error';
import { envOf, readEnv, secretsFromEnv } from '../../../agent/env/read';
import { ENV_VARIABLES, type EnvName } from '../../../agent/env/variables';
import { ENV_DOC_FILE, renderEnvironmentDoc } from '../../../agent/env/write-doc';

const SWITCHES: EnvName[] = ['AGENT_RECORD', 'AGENT_MEMORY_DISTILL', 'AGENT_MULTI_ACTIONS', 'BWA_FULL'];

/** For every variable that can be wrong: a value it does not take and the end of the message that names it. */
const REJECTED: Partial<Record<EnvName, [string, string]>> = {
  AGENT_DECIDER: ['llm', 'must be auto, model or recipe (got "llm")'],
  AGENT_RECORD: ['2', 'must be a switch: 1, 0, true, false, on, off, yes or no (got "2")'],
  AGENT_RECORD_SAMPLES: ['11', 'must be a whole number from 1 to 10 (got "11")'],
  AGENT_JUDGE: ['later', 'must be inline or batch (got "later")'],
  AGENT_RESUME_CHANGED: ['discard', 'must be rerun or keep (got "discard")'],
  AGENT_JUDGE_BATCH: ['0', 'must be a whole number from 1 to 50 (got "0")'],
  AGENT_MEMORY_DISTILL: ['sometimes', 'must be a switch: 1, 0, true, false, on, off, yes or no (got "sometimes")'],
  AGENT_RUN_ID: [
    '../up',
    'must be a name safe as a folder name: up to 100 letters, digits, ".", "_" and "-", starting with a letter or digit (got "../up")',
  ],
  AGENT_URL: ['example.com/page', 'must be a URL (http://, https://) (got "example.com/page")'],
  AGENT_FAIL_ON: ['failed', 'must be a comma-separated list of needs_review or partial_success ("failed" is not one of them) (got "failed")'],
  AGENT_STOP_AFTER: ['three', 'must be a whole number from 1 to 1000 (got "three")'],
  AGENT_DISCOVER_MAX_ITEMS: ['0', 'must be a whole number ≥ 1 (got "0")'],
  AGENT_DOWNLOAD_MAX_MB: ['0', 'must be a whole number ≥ 1 (got "0")'],
  AGENT_TRACE: ['always', 'must be on, off or retain-on-failure (got "always")'],
  AGENT_RETRIES: ['-1', 'must be a whole number ≥ 0 (got "-1")'],
  AGENT_WORKERS: ['50%', 'must be a whole number ≥ 1 (got "50%")'],
  ANTHROPIC_BASE_URL: ['localhost:4000', 'must be a URL (http://, https://) (got "localhost:4000")'],
  AGENT_MODEL_RETRIES: ['1.5', 'must be a whole number ≥ 0 (got "1.5")'],
  AGENT_MODEL_TIMEOUT_MS: ['2m', 'must be a whole number ≥ 1 (got "2m")'],
  AGENT_MAX_TOKENS: ['0', 'must be a whole number ≥ 1 (got "0")'],
  AGENT_CONTEXT_WINDOW: ['200k', 'must be a whole number ≥ 1 (got "200k")'],
  AGENT_SNAPSHOT_TOKENS: ['150', 'must be a whole number from 200 to 200000 (got "150")'],
  AGENT_REFLECTION: ['deep', 'must be light or full (got "deep")'],
  AGENT_EFFORT: ['extreme', 'must be low, medium, high, xhigh or max (got "extreme")'],
  AGENT_MULTI_ACTIONS: ['maybe', 'must be a switch: 1, 0, true, false, on, off, yes or no (got "maybe")'],
  AGENT_MAX_ACTIONS_PER_STEP: ['5', 'must be a whole number from 1 to 3 (got "5")'],
  AGENT_BROWSER_WS: [
    'ftp://host/x',
    'must be the ws:// (or wss://, http://, https://) address a Playwright browser server printed, e.g. ws://10.0.0.5:3000/<path> (`bwa browser-server` prints it)',
  ],
  AGENT_BROWSER_WS_HEADERS: ['["Bearer"]', 'must be a JSON object of header name → text (not an object), e.g. {"Authorization":"Bearer <token>"}'],
  AGENT_TASK_BLOCKERS: ['{"people": 3}', 'must be a JSON object of task id → reason (the value of "people" is not text) (got "{"people": 3}")'],
  AGENT_PROJECT_DIR: ['e2e', 'must be an absolute folder (got "e2e")'],
  BWA_FULL: ['all', 'must be a switch: 1, 0, true, false, on, off, yes or no (got "all")'],
  BWA_SELF_WORKERS: ['many', 'must be a whole number ≥ 1 (got "many")'],
};

/** Variables that take any text: a model id, a path, a key. */
const ANY_TEXT: EnvName[] = [
  'ANTHROPIC_API_KEY',
  'AGENT_MODEL',
  'AGENT_FAST_MODEL',
  'AGENT_FALLBACK_MODEL',
  'AGENT_CHROMIUM_PATH',
  'AGENT_TASKS_DIR',
  'AGENT_REPORTS_DIR',
  'AGENT_AUTH_DIR',
  'AGENT_ENV_FILE',
  'AGENT_INVOCATION_ID',
  'PLAYWRIGHT_BLOB_OUTPUT_DIR',
  'PLAYWRIGHT_BLOB_OUTPUT_FILE',
  'CI',
];

test('docs/environment.md is generated from the schema and current (`npm run env:doc`)', () => {
  expect(fs.readFileSync(ENV_DOC_FILE, 'utf8'), 'docs/environment.md is stale: run `npm run env:doc`').toBe(renderEnvironmentDoc());
  for (const name of Object.keys(ENV_VARIABLES)) expect(renderEnvironmentDoc()).toContain(`| \`${name}\` |`);
});

test('every variable that can be wrong is checked when read, and the error names it and what it takes', () => {
  expect([...Object.keys(REJECTED), ...ANY_TEXT].sort()).toEqual(Object.keys(ENV_VARIABLES).sort());
  for (const [name, [value, message]] of Object.entries(REJECTED) as Array<[EnvName, [string, string]]>) {
    let thrown: unknown;
    try {
      readEnv(name, { [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown, `${name}=${value}`).toBeInstanceOf(EnvError);
    expect((thrown as EnvError).message).toBe(`${name} ${message}`);
    expect((thrown as EnvError).code).toBe('BWA_ENV');
  }
});

test('unset and blank are the same: each variable gives its default', () => {
  for (const blank of [undefined, '', '  ']) {
    const env = envOf({ AGENT_RECORD: blank, AGENT_JUDGE_BATCH: blank, AGENT_MODEL: blank, AGENT_FAIL_ON: blank, AGENT_SNAPSHOT_TOKENS: blank });
    expect(env.AGENT_RECORD).toBe(false);
    expect(env.AGENT_JUDGE_BATCH).toBe(10);
    expect(env.AGENT_MODEL).toBe('claude-sonnet-5-5');
    expect(env.AGENT_FAIL_ON).toEqual([]);
    expect(env.AGENT_SNAPSHOT_TOKENS).toBeUndefined();
  }
});

test('every switch takes 1/0, true/false, on/off, yes/no in any case', () => {
  for (const name of SWITCHES) {
    for (const word of ['1', 'true', 'ON', 'Yes']) expect(readEnv(name, { [name]: word }), `${name}=${word}`).toBe(true);
    for (const word of ['0', 'False', 'off', 'NO']) expect(readEnv(name, { [name]: word }), `${name}=${word}`).toBe(false);
  }
  // Every switch of the schema is in the list above.
  const switches = Object.entries(ENV_VARIABLES).filter(([, variable]) => variable.takes.startsWith('a switch'));
  expect(switches.map(([name]) => name).sort()).toEqual([...SWITCHES].sort());
});

test('numbers out of range are errors, never clamped; choices ignore case and spaces', () => {
  expect(() => readEnv('AGENT_MAX_ACTIONS_PER_STEP', { AGENT_MAX_ACTIONS_PER_STEP: '0' })).toThrow('from 1 to 3 (got "0")');
  expect(readEnv('AGENT_MAX_ACTIONS_PER_STEP', { AGENT_MAX_ACTIONS_PER_STEP: '3' })).toBe(3);
  expect(readEnv('AGENT_DECIDER', { AGENT_DECIDER: ' Recipe ' })).toBe('recipe');
  expect(readEnv('AGENT_FAIL_ON', { AGENT_FAIL_ON: 'needs_review, partial_success' })).toEqual(['needs_review', 'partial_success']);
  // Every kind trims: a model id or a folder copied with spaces around it means what it says.
  expect(readEnv('AGENT_MODEL', { AGENT_MODEL: ' claude-x ' })).toBe('claude-x');
  expect(readEnv('AGENT_TASKS_DIR', { AGENT_TASKS_DIR: ' tasks ' })).toBe(path.resolve('tasks'));
  // A folder belongs to the user's project: relative to its folder when withBwa named it, never to bwa's package.
  expect(readEnv('AGENT_TASKS_DIR', { AGENT_PROJECT_DIR: '/srv/team-e2e', AGENT_TASKS_DIR: 'audit/tasks' })).toBe('/srv/team-e2e/audit/tasks');
  expect(readEnv('AGENT_REPORTS_DIR', { AGENT_PROJECT_DIR: '/srv/team-e2e' })).toBe('/srv/team-e2e/reports');
  expect(readEnv('AGENT_AUTH_DIR', { AGENT_PROJECT_DIR: '/srv/team-e2e', AGENT_AUTH_DIR: '/secure/auth' })).toBe('/secure/auth');
  expect(() => readEnv('AGENT_BROWSER_WS_HEADERS', { AGENT_BROWSER_WS_HEADERS: '{"X-Retries": 3}' })).toThrow(
    '(the value of "X-Retries" is not text)',
  );
});

test('a value that may hold a credential is never repeated in an error', () => {
  const secret = 'tok-5e3c7';
  for (const [name, value] of [
    ['AGENT_BROWSER_WS', `ftp://user:${secret}@grid/x`],
    ['ANTHROPIC_BASE_URL', `ftp://user:${secret}@proxy.corp/`],
    ['AGENT_BROWSER_WS_HEADERS', `{"Authorization": "Bearer ${secret}", "X-Retries": 3}`],
    ['AGENT_BROWSER_WS_HEADERS', `{"Authorization": "Bearer ${secret}"`],
  ] as const) {
    expect(() => readEnv(name, { [name]: value })).toThrow(EnvError);
    expect(() => readEnv(name, { [name]: value })).not.toThrow(secret);
  }
  expect(ENV_VARIABLES.ANTHROPIC_API_KEY.sensitive).toBe(true);
  expect(secretsFromEnv({ SECRET_TOKEN: secret, SECRET_EMPTY: '', OTHER: 'x' })).toEqual({ TOKEN: secret });
});

test('the environment is read when a value is used, not when the module loads (workers inherit what the main process set)', () => {
  const env = envOf();
  const saved = process.env.AGENT_JUDGE_BATCH;
  try {
    process.env.AGENT_JUDGE_BATCH = '7';
    expect(env.AGENT_JUDGE_BATCH).toBe(7);
    process.env.AGENT_JUDGE_BATCH = '8';
    expect(env.AGENT_JUDGE_BATCH).toBe(8);
  } finally {
    if (saved === undefined) delete process.env.AGENT_JUDGE_BATCH;
    else process.env.AGENT_JUDGE_BATCH = saved;
  }
});
