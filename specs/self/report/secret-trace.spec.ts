import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { sha256 } from '../../../agent/evidence/hash';
import { runNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';
import { filesContaining } from './report-data';
import { readZip } from './zip';
import { serveForm } from './secret-form';
import { ECHOED_PASSWORD, echoedForms, serveSecretEcho } from '../helpers/secret-echo';

test.setTimeout(180_000);

test('AGENT_TRACE=on: a {{secret:NAME}} typed into a field appears in no trace, report, result or console line — nor, in any encoding, when a page echoes it and the sample fails (error-context.md)', async () => {
  const server = await serveForm();
  const echo = await serveSecretEcho();
  try {
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const secret = `Sx${randomBytes(12).toString('hex')}`;
    const root = tempDir('bwa-secret-');
    const tasks = path.join(root, 'tasks');
    const reports = path.join(root, 'reports');
    writeFiles(tasks, {
      'secret_login.json': JSON.stringify({
        task_id: 'secret_login',
        start_url: `http://${host}/`,
        system_prompt: 'Sign in.',
        goal: 'Type the access token and the name.',
        output_schema: { digest: 'string' },
        input_schema: { who: 'string' },
        allowed_domains: [host],
        recipe: [
          { action: 'type', target: { label: 'Access token' }, text: '{{secret:ACCESS_TOKEN}}' },
          { action: 'type', target: { label: 'Name' }, text: '{{who}}' },
          { action: 'wait', target: { css: '#digest' } },
          { action: 'screenshot', label: 'signed-in' },
          { action: 'extract', field: 'digest', target: { css: '#digest' } },
          { action: 'click', target: { role: 'button', name: 'Sign in' }, expect_url: '/session$' },
          { action: 'done', extracted: {} },
        ],
      }),
      'inputs/secret_login.csv': 'sample_id,who\nalice,Alice\n',
      // A page that echoes the typed password in every encoding, then a step that fails: the test fails
      // (AGENT_FAIL_ON), so Playwright writes error-context.md with the page's snapshot, echoes and all.
      'secret_echo.json': JSON.stringify({
        task_id: 'secret_echo',
        start_url: echo.url,
        system_prompt: 'Sign in.',
        goal: 'Type the password and approve.',
        output_schema: { approved: 'boolean' },
        allowed_domains: [echo.host],
        recipe: [
          { action: 'type', target: { label: 'Password' }, text: '{{secret:ECHO_PASSWORD}}' },
          { action: 'wait', target: { text: 'As character references' } },
          { action: 'click', target: { role: 'button', name: 'Approve' } },
        ],
      }),
      'inputs/secret_echo.csv': 'sample_id\nbob\n',
    });

    const run = await runNested({
      args: ['--project=bwa', '--grep', '@secret_login|@secret_echo', '--retries=0'],
      env: {
        AGENT_TASKS_DIR: tasks,
        AGENT_REPORTS_DIR: reports,
        AGENT_RUN_ID: 'secret',
        AGENT_TRACE: 'on',
        AGENT_FAIL_ON: 'needs_review',
        SECRET_ACCESS_TOKEN: secret,
        SECRET_ECHO_PASSWORD: ECHOED_PASSWORD,
      },
    });
    expect(run.code, run.output).toBe(1);
    expect(JSON.parse(fs.readFileSync(path.join(reports, 'runs', 'secret', 'secret_echo', 'bob', 'result.json'), 'utf8')).status).toBe(
      'needs_review',
    );

    // The page got exactly the secret: it shows the secret's hash, read back as evidence.
    const result = JSON.parse(fs.readFileSync(path.join(reports, 'runs', 'secret', 'secret_login', 'alice', 'result.json'), 'utf8'));
    expect(result.status).toBe('done');
    expect(result.extracted.digest.value).toBe(sha256(secret));

    // A trace was recorded, with DOM snapshots of the field (showing the placeholder instead of the value).
    const traces = findFiles(reports, name => name === 'trace.zip').filter(file => file.includes('alice'));
    expect(traces.length).toBeGreaterThanOrEqual(2); // test-results/ and the run folder's copy
    const trace = readZip(fs.readFileSync(traces[0]!));
    const contextTrace = [...trace]
      .filter(([name]) => /^\d+-trace\.trace$/.test(name))
      .map(([, data]) => data.toString('utf8'))
      .join('\n');
    expect(contextTrace).toContain('"__playwright_value_":"{{secret:ACCESS_TOKEN}}"');
    expect(trace.get('test.trace')?.toString('utf8')).toContain('Typed \\"{{secret:ACCESS_TOKEN}}\\"');

    // The sign-in post reached the trace's network log with the placeholder where the token was.
    expect([...trace.values()].some(data => data.includes('token={{secret:ACCESS_TOKEN}}&name=Alice'))).toBe(true);

    // Nowhere: trace entries (call params, snapshots, network, step titles), HTML report (and its embedded data),
    // Allure results, the run folder, test-results, and what the run printed.
    expect(filesContaining(reports, secret)).toEqual([]);
    expect(run.output).not.toContain(secret);

    // The echoing page's snapshot at the failure, masked; no form of the password in any file or line of the run.
    const contexts = findFiles(reports, name => name === 'error-context.md').filter(file => file.includes('bob'));
    expect(contexts.length).toBeGreaterThan(0);
    expect(fs.readFileSync(contexts[0]!, 'utf8')).toContain('As character references: {{secret:ECHO_PASSWORD}}');
    const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
    for (const form of new Set(echoedForms(ECHOED_PASSWORD).flatMap(f => [f, escaped(f), escaped(escaped(f))]))) {
      expect(filesContaining(reports, form), form).toEqual([]);
      expect(run.output).not.toContain(form);
    }
  } finally {
    await new Promise(resolve => server.close(resolve));
    await echo.close();
  }
});

function findFiles(root: string, match: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && match(entry.name)) found.push(path.join(entry.parentPath, entry.name));
  }
  return found.sort();
}
