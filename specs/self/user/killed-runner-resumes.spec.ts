import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { killGroup, PROJECT_ROOT, runNested, startNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';
import { SITE } from '../helpers/sites';

// A hang guard: under the full suite on 2 cores this test has taken over two minutes.
test.setTimeout(360_000);

const SAMPLES = ['ada', 'alan', 'barbara', 'grace', 'linus', 'margaret'];

/** The bundled people task, slowed down by the site's ?delay knob so the runner can be killed mid-sample. */
function slowTaskDir(): string {
  const dir = tempDir('bwa-resume-tasks-');
  const spec = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tasks/people_profile.json'), 'utf8'));
  spec.task_id = 'slow_people';
  spec.start_url = `${SITE.people}/people/{{username}}?delay=1200`;
  // After its screenshot a sample loads a slow page again: it is mid-flight, with evidence written, for 2 s.
  spec.recipe.splice(1, 0, { action: 'goto', url: `${SITE.people}/people/{{username}}?delay=2000` });
  delete spec.$schema;
  writeFiles(dir, {
    'slow_people.json': JSON.stringify(spec),
    'inputs/slow_people.csv': `sample_id,username\n${SAMPLES.map(s => `${s},${s}`).join('\n')}\n`,
  });
  return dir;
}

/** Samples that have written evidence but no result yet: the runner is in the middle of them. */
function samplesInFlight(runDir: string): Map<string, string[]> {
  const inFlight = new Map<string, string[]>();
  for (const sample of SAMPLES) {
    const dir = path.join(runDir, 'slow_people', sample);
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    if (files.length && !files.includes('result.json')) inFlight.set(sample, files);
  }
  return inFlight;
}

function doneSamples(runDir: string): Map<string, string> {
  const done = new Map<string, string>();
  for (const sample of SAMPLES) {
    const file = path.join(runDir, 'slow_people', sample, 'result.json');
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (JSON.parse(text).status === 'done') done.set(sample, text);
  }
  return done;
}

test('a runner killed with SIGKILL mid-run resumes: nothing done twice, nothing lost', async () => {
  const reports = tempDir('bwa-resume-');
  const env = { AGENT_TASKS_DIR: slowTaskDir(), AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'killed-run' };
  const args = ['--project=bwa', '--grep', '@slow_people', '--workers=1', '--retries=0'];
  const runDir = path.join(reports, 'runs', 'killed-run');

  const first = startNested({ args, env });
  // Killed once two samples are done and a third has written evidence: one sample is cut off mid-flight.
  await expect.poll(() => doneSamples(runDir).size >= 2 && samplesInFlight(runDir).size > 0, { timeout: 120_000, intervals: [100] }).toBe(true);
  killGroup(first.child);
  const killed = await first.done;
  expect(killed.signal).toBe('SIGKILL');
  const doneBeforeKill = doneSamples(runDir);
  const cutOff = samplesInFlight(runDir);
  expect(cutOff.size).toBeGreaterThan(0);
  expect(doneBeforeKill.size).toBeLessThan(SAMPLES.length);

  const second = await runNested({ args, env });
  expect(second.code, second.output).toBe(0);
  for (const sample of doneBeforeKill.keys()) expect(second.output).toContain(`slow_people/${sample} done (resumed)`);

  // Done samples were skipped, not redone: their result.json is byte-for-byte what the killed run wrote.
  for (const [sample, text] of doneBeforeKill) expect(fs.readFileSync(path.join(runDir, 'slow_people', sample, 'result.json'), 'utf8')).toBe(text);
  const rows = parse(fs.readFileSync(path.join(runDir, 'slow_people', 'combined.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  expect(rows.map(r => r.sample_id)).toEqual(SAMPLES);
  expect(rows.every(r => r.status === 'done')).toBe(true);
  const manifest = JSON.parse(fs.readFileSync(path.join(runDir, 'manifest.json'), 'utf8'));
  expect(manifest.counts).toMatchObject({ done: 6, total: 6, resumed: doneBeforeKill.size });
  // A sample cut off mid-flight keeps what it had written, moved aside into attempt-1/.
  for (const [sample, files] of cutOff) {
    const dir = path.join(runDir, 'slow_people', sample);
    expect(
      fs.readdirSync(dir).filter(name => name.startsWith('attempt-')),
      sample,
    ).toEqual(['attempt-1']);
    expect(fs.readdirSync(path.join(dir, 'attempt-1')), sample).toEqual(expect.arrayContaining(files));
  }
});
