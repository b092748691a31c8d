import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTaskFile } from '../../../agent/task/load-task';
import { bundledTask, readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { runNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';
import { SITE, SITE_HOST } from '../helpers/sites';

const SECRET = 'Tr0ub4dor&3-horse-battery';

test.describe('catalogue: process faults', () => {
  test('a write that fails (result.json cannot be written) → a clear error naming the file; no truncated JSON anywhere', async ({ agent }) => {
    const reports = tempDir('bwa-write-fail-');
    process.env.AGENT_REPORTS_DIR = reports;
    try {
      const task = bundledTask('people_profile', { task_id: 'write_fail' });
      const dir = path.join(reports, 'runs', process.env.AGENT_RUN_ID!, 'write_fail', 'ada');
      // A folder where result.json should go: the rename onto it fails, as a full or read-only disk would.
      fs.mkdirSync(path.join(dir, 'attempt-1'), { recursive: true });
      // Once the run is under way (its screenshot is written), make result.json unwritable. The run shares this
      // process's event loop, so a watcher swaps it in before the page round-trips that precede result.json.
      let blocked = false;
      const watcher = fs.watch(dir, () => {
        if (blocked || !fs.existsSync(path.join(dir, '01_profile.png'))) return;
        fs.mkdirSync(path.join(dir, 'result.json'));
        blocked = true;
        watcher.close();
      });
      const run = agent.run(task, sampleOf({ sample_id: 'ada', username: 'ada' }));
      await expect(run).rejects.toThrow(/Could not write .*result\.json/);
      expect(blocked).toBe(true);
      for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.json') && f !== 'result.json'))
        expect(() => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), file).not.toThrow();
      expect(fs.readdirSync(dir).filter(f => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      delete process.env.AGENT_REPORTS_DIR;
    }
  });
});

test.describe('catalogue: bad input stops the run before anything starts', () => {
  for (const [name, csv, message] of [
    ['a missing CSV column', 'sample_id\nada\n', /missing column\(s\) username/],
    ['an extra CSV column', 'sample_id,username,colour\nada,ada,red\n', /unknown column\(s\) colour/],
    ['an unsafe sample id', 'sample_id,username\n../../etc,ada\n', /line 2, column sample_id: "\.\.\/\.\.\/etc" contains a path separator/],
    ['an empty CSV', '', /the file is empty/],
    [
      'a non-UTF-8 CSV',
      Buffer.from([
        0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x5f, 0x69, 0x64, 0x2c, 0x75, 0x73, 0x65, 0x72, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x61, 0x2c, 0xe9, 0x0a,
      ]),
      /line 2: not valid UTF-8/,
    ],
  ] as const) {
    test(`${name} → exit ≠ 0, no sample ran, the message names file and line`, async () => {
      const tasks = tempDir('bwa-bad-input-');
      const spec = JSON.parse(fs.readFileSync(path.resolve('tasks/people_profile.json'), 'utf8'));
      delete spec.$schema;
      writeFiles(tasks, { 'people_profile.json': JSON.stringify(spec), 'inputs/people_profile.csv': csv });
      const run = await runNested({ args: ['--project=bwa'], env: { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: tempDir() } });
      expect(run.code).not.toBe(0);
      expect(run.output).toContain('people_profile.csv');
      expect(run.output).toMatch(message);
      expect(run.output).not.toMatch(/\d+ passed/);
    });
  }
});

test.describe('catalogue: secrets', () => {
  const model = useScriptedModel({ SECRET_FORM_TOKEN: SECRET });

  test('a {{secret:NAME}} typed by the model never reaches the model server, the action log, result.json or the console', async ({ agent }) => {
    const dir = tempDir();
    const file = path.join(dir, 'secret_form.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        task_id: 'secret_form',
        start_url: `${SITE.widgets}/form-tabs`,
        system_prompt: 'Fill the employee number with the provided secret.',
        goal: 'Type {{secret:FORM_TOKEN}} into the first text field, then finish.',
        output_schema: { typed: 'boolean' },
        allowed_domains: [SITE_HOST.widgets],
      }),
    );
    model.server.setScript('secret_form', 's1', {
      steps: [
        { tool: 'type', target: { role: 'textbox' }, args: { text: '{{secret:FORM_TOKEN}}' } },
        { tool: 'done', args: { extracted: { typed: true } } },
      ],
    });
    const logged: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      original(...args);
    };
    try {
      const result = await agent.run(loadTaskFile(file), sampleOf({ sample_id: 's1' }));
      expect(result.status).toBe('done');
    } finally {
      console.log = original;
    }
    expect(model.server.errors).toEqual([]);
    const typed = model.server.requests.filter(r => r.kind === 'decider')[1]!.lastUserText;
    // The field was really filled (the page shows the value masked or not, but the agent acted)…
    expect(typed).toContain('type(');
    // …and the value is nowhere we write or send.
    const everything = [
      JSON.stringify(model.server.requests),
      readRunFile('secret_form', 's1', 'action_log.json'),
      readRunFile('secret_form', 's1', 'result.json'),
      readRunFile('secret_form', 's1', 'checkpoint.json'),
      logged.join('\n'),
    ];
    for (const text of everything) expect(text).not.toContain(SECRET);
    expect(readRunFile('secret_form', 's1', 'action_log.json')).toContain('{{secret:FORM_TOKEN}}');
  });
});
