import { expect, test, type Browser } from '@playwright/test';
import { compileRecipe } from '../../../agent/recipe/compile';
import { compileFromSamples, readsMore } from '../../../agent/recipe/compile-samples';
import { saveCompiled } from '../../../agent/recipe/record';
import type { DeciderMode } from '../../../agent/decide/select-decider';
import type { Result } from '../../../agent/evidence/result-schema';
import { SampleSession } from '../../../agent/session';
import { authStatePath } from '../../../agent/task/auth-profile';
import type { LoadedTask } from '../../../agent/task/load-task';
import { peopleEnrichmentScript } from '../../../fixtures/model-scripts/people-enrichment';
import type { EnrichmentTruth } from '../../../fixtures/sites/peoplesearch/lookups';
import { ensureFixtureSites } from '../../../fixtures/serve';
import { PEOPLESEARCH_ENV } from '../../../fixtures/sites/peoplesearch/credentials';
import { bundledTask, sampleOf, signInBundled, useScriptedModel } from '../helpers/agent-env';
import { useEnv } from '../helpers/env';
import { tempDir } from '../helpers/temp';
import { runSampleAlone, sourceOf } from './helpers';
import { SITE } from '../helpers/sites';

const TASK = 'people_enrichment';
const ROWS: Record<string, { name: string; company: string }> = {
  maria_garcia_initech: { name: 'Maria Garcia', company: 'Initech' },
  maria_garcia_globex: { name: 'Maria Garcia', company: 'Globex' },
  priya_nair_initech: { name: 'Priya Nair', company: 'Initech' },
};

const model = useScriptedModel();
useEnv(() => ({ ...PEOPLESEARCH_ENV, AGENT_AUTH_DIR: tempDir('bwa-auth-') }));
let truth: Record<string, EnrichmentTruth>;

test.beforeAll(async ({ browser }) => {
  await ensureFixtureSites();
  truth = (await (await fetch(`${SITE.peoplesearch}/__truth.json`)).json()).lookups;
  await signInBundled(browser, 'peoplesearch');
});

const runSigned = (browser: Browser, task: LoadedTask, sampleId: string, mode: DeciderMode) =>
  runSampleAlone(browser, task, sampleOf({ sample_id: sampleId, ...ROWS[sampleId]! }), mode, { storageState: authStatePath('peoplesearch') });

test('a recipe that does not hold on the other recorded sample is compiled again from that sample, which names the current employer', async ({
  browser,
}) => {
  // Two model runs, two compilations with their replays, one replay: eight samples through the browser.
  // 2.6 min alone at load ~19; over 4 min in the full suite at load ~25 with three other files running.
  test.setTimeout(420_000);
  const task = bundledTask(TASK, { recipe: undefined });
  const results: Result[] = [];
  for (const id of ['maria_garcia_initech', 'maria_garcia_globex']) {
    model.server.setScript(TASK, id, peopleEnrichmentScript({ name: truth[id]!.name, company: truth[id]!.company }));
    results.push(await runSigned(browser, task, id, 'model'));
  }
  expect(results.map(r => r.status)).toEqual(['done', 'done']);
  const [oneEmployer, twoEmployers] = results.map(sourceOf) as [ReturnType<typeof sourceOf>, ReturnType<typeof sourceOf>];
  const input = { prepare: SampleSession.prepare.bind(SampleSession), task, browser, runId: process.env.AGENT_RUN_ID! };

  // From the profile with one employer, nothing shows that the tenure to read is the current one's.
  const alone = await compileRecipe({ ...input, source: oneEmployer, others: [twoEmployers] });
  expect(alone.verifiedOn.map(v => v.sample_id)).toEqual(['maria_garcia_initech']);
  expect(alone.notes.join('\n')).toContain('not reproduced on maria_garcia_globex');

  const from = await compileFromSamples({ ...input, source: oneEmployer, others: [twoEmployers] });
  expect(from.source.sampleId).toBe('maria_garcia_globex');
  expect(from.others.map(o => o.sampleId)).toEqual(['maria_garcia_initech']);
  expect(from.compiled.verifiedOn.map(v => v.sample_id)).toEqual(['maria_garcia_globex', 'maria_garcia_initech']);
  expect(from.compiled.notes.join('\n')).toMatch(
    /compiled from maria_garcia_globex; recipes from other sources were passed over — maria_garcia_initech: held on 1 of 2 samples, \d+ values read back/,
  );

  await saveCompiled(task, from.compiled, from.source, { kind: 'explicit' });
  const replayed = await runSigned(browser, task, 'priya_nair_initech', 'recipe');
  expect(replayed.status, replayed.error ?? '').toBe('done');
  expect(replayed.usage.model_calls).toBe(0);
  expect(replayed.extracted.tenure!.value).toBe(truth.priya_nair_initech!.tenure);
  expect(replayed.extracted.current_company!.value).toBe('Initech');
});

test('the recipe kept is the one that reads back the most values over the samples, not the one that holds on the most: a commit pushed without a pull request teaches a recipe that reads one field everywhere', () => {
  const verified = (fields: number[]) => ({ verifiedOn: fields.map((n, i) => ({ sample_id: `s${i}`, fields: n })) });
  const wholeChain = verified([9, 9, 9]);
  const commitOnly = verified([1, 1, 1, 1]);
  expect(readsMore(wholeChain, commitOnly)).toBe(true);
  expect(readsMore(commitOnly, wholeChain)).toBe(false);
  // As many values read: the recipe holding on more samples.
  expect(readsMore(verified([2, 2, 2]), verified([3, 3]))).toBe(true);
});
