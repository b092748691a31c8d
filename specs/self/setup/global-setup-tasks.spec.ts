import { expect, test, type FullConfig } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import globalSetup from '../../../agent/setup/global-setup';
import { setEnv } from '../helpers/env';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';

test('globalSetup readies only the tasks the generated tests load: one whose recipe steps cannot load gets no server', async () => {
  const dir = tempDir('bwa-setup-tasks-');
  const started = (taskId: string) => path.join(dir, `${taskId}.started`);
  // Each server only leaves a mark and exits: setup then blocks its task, which is all this needs.
  const withServer = (taskId: string, port: number, recipe: unknown[]) =>
    JSON.stringify(
      taskJson({
        task_id: taskId,
        web_servers: [{ command: `touch ${started(taskId)}; exit 1`, url: `http://127.0.0.1:${port}/health`, timeout_seconds: 2 }],
        recipe,
      }),
    );
  writeFiles(dir, {
    'fine.json': withServer('fine', 4191, [{ action: 'screenshot', label: 'page' }]),
    'inputs/fine.csv': 'sample_id,username\nada,ada\n',
    'picked_twice.json': withServer('picked_twice', 4192, [{ action: 'extract', field: 'name', target: { css: 'h1', nth: 1, first: true } }]),
    'inputs/picked_twice.csv': 'sample_id,username\nada,ada\n',
  });
  const config = {
    projects: [{ name: 'bwa', testDir: path.join(PROJECT_ROOT, 'agent/project'), testMatch: 'tasks.spec.ts' }],
    argv: ['/usr/bin/node', 'playwright', 'test', '--project=bwa'],
    configFile: path.join(PROJECT_ROOT, 'playwright.config.ts'),
    reporter: [['list'], [path.join(PROJECT_ROOT, 'agent/report/reporter.ts')]],
  } as unknown as FullConfig;
  const log = console.log;
  const lines: string[] = [];
  console.log = (...parts: unknown[]) => lines.push(parts.join(' '));
  const restoreEnv = setEnv({
    AGENT_TASKS_DIR: dir,
    AGENT_REPORTS_DIR: tempDir('bwa-setup-reports-'),
    AGENT_RUN_ID: 'setup_tasks',
    AGENT_TASK_BLOCKERS: undefined,
    AGENT_URL: undefined,
    ANTHROPIC_API_KEY: undefined,
    AGENT_BROWSER_WS: undefined,
  });
  try {
    const stop = await globalSetup(config);
    await stop();
    expect(JSON.parse(process.env.AGENT_TASK_BLOCKERS!)).toEqual({
      fine: expect.stringContaining('task fine needs the server at http://127.0.0.1:4191/health'),
    });
  } finally {
    console.log = log;
    restoreEnv();
  }
  expect(fs.existsSync(started('fine'))).toBe(true);
  expect(fs.existsSync(started('picked_twice')), lines.join('\n')).toBe(false);
});
