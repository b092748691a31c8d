import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildVisionQuestion, readVisionAnswer, VISION_SECTION_TITLE, type AskVision, type VisionAnswer } from '../../../agent/decide/vision';
import { MAX_UNUSABLE_ANSWERS, VisionGate, visionReasons } from '../../../agent/loop/vision-gate';
import { observe, type DomConfidence } from '../../../agent/snapshot';
import { loadTaskFile } from '../../../agent/task/load-task';
import type { ModelServer } from '../../../fixtures/model-server';
import { sampleOf, useScriptedModel } from '../helpers/agent-env';
import { tempDir } from '../helpers/temp';

const WIDGETS = 'http://127.0.0.1:4102';
const PROFILE = `<title>Ada</title><main><h1>Ada Lovelace</h1>${Array.from({ length: 12 }, (_, i) => `<p>Fact ${i}</p><a href="/x${i}">Link ${i}</a>`).join('')}</main>`;
const CANVAS = `<title>Dashboard</title><main><h1>Signups</h1><canvas id="c" width="1000" height="600"></canvas></main>`;
/** A notice set as a picture (its words drawn inside an SVG image): the tree sees an image and nothing it says. */
const NOTICE_SVG = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><rect width="1000" height="700" fill="#fff"/><text x="40" y="120" font-size="48">Closed on 24 December</text></svg>')}`;
const noticePage = (alt: string) =>
  `<title>Opening hours</title><main><h1>Opening hours</h1><img src="${NOTICE_SVG}" width="1000" height="700"${alt}>${Array.from({ length: 12 }, (_, i) => `<p>Fact ${i}</p><a href="/x${i}">Link ${i}</a>`).join('')}</main>`;
const confidence = (c: Partial<DomConfidence>): DomConfidence => ({
  score: 1,
  canvasShare: 0,
  unnamedImageShare: 0,
  unlabeledInteractive: 0,
  svgOnlyIcons: 0,
  semanticNodes: 40,
  interactive: 20,
  viewportTextChars: 900,
  totalNodes: 300,
  ...c,
});

/** A stand-in for the model: records every question and screenshot, answers from a list. */
function recordingAsk(answers: VisionAnswer[]) {
  const asked: Array<{ question: string; png: Buffer }> = [];
  const ask: AskVision = async (question, png) => {
    asked.push({ question, png });
    return answers[Math.min(asked.length - 1, answers.length - 1)]!;
  };
  return { ask, asked };
}

const signal = () => new AbortController().signal;

test.describe('when vision is asked', () => {
  test('only for a low score with a reason a screenshot can resolve; a sparse page whose text is in the tree is not one', () => {
    expect(visionReasons(confidence({ score: 0.95, svgOnlyIcons: 3, interactive: 43 }))).toEqual([]);
    expect(visionReasons(confidence({ score: 0.4, canvasShare: 0.2 }))).toEqual([
      'a canvas covers 20% of the viewport (drawn content is not in the tree)',
    ]);
    expect(visionReasons(confidence({ score: 0.38, svgOnlyIcons: 7, interactive: 9 }))).toEqual([
      '7 icon(s) shown only as unlabeled SVG (status or meaning carried by shape or colour)',
    ]);
    expect(visionReasons(confidence({ score: 0.3, unlabeledInteractive: 2, interactive: 4 }))).toEqual(['2 of 4 controls have no name']);
    expect(visionReasons(confidence({ score: 0.55, unnamedImageShare: 0.45, viewportTextChars: 120 }))).toEqual([
      'pictures without a text alternative cover 45% of the viewport (text or content set as an image is not in the tree)',
    ]);
    // A photo beside the text of an article: the tree already has what the viewport says.
    expect(visionReasons(confidence({ score: 0.55, unnamedImageShare: 0.45, viewportTextChars: 1200 }))).toEqual([]);
    // A page still loading, or a short one: low score (few semantic nodes), nothing a screenshot would add.
    expect(visionReasons(confidence({ score: 0.4, semanticNodes: 1, interactive: 0 }))).toEqual([]);
  });

  test('the question names the goal and the reasons, quotes at most 1000 chars of DOM text, and asks for a short form', () => {
    const dom = `URL: x\n${'y'.repeat(5000)}`;
    const question = buildVisionQuestion('check CI status', ['7 icon(s) shown only as unlabeled SVG'], dom);
    expect(question).toContain("Task goal: 'check CI status'.");
    expect(question).toContain('7 icon(s) shown only as unlabeled SVG');
    expect(question).toContain(`DOM text:\n${dom.slice(0, 1000)}`);
    expect(question).not.toContain(dom.slice(0, 1001));
    expect(question).toContain('or exactly NONE if the screenshot adds nothing');
  });

  test('answers: facts are kept, NONE adds nothing, empty / refusing / wordless / text-less answers are unusable', () => {
    const text = (t: string, stop: 'end_turn' | 'max_tokens' = 'end_turn') =>
      readVisionAnswer({ content: [{ type: 'text', text: t, citations: null }], stop_reason: stop });
    expect(text('- build: red X (failed)')).toEqual({ kind: 'facts', text: '- build: red X (failed)' });
    expect(text('- build: red X', 'max_tokens')).toEqual({ kind: 'facts', text: '- build: red X … (answer cut)' });
    expect(text('NONE.')).toEqual({ kind: 'nothing' });
    expect(text('   ')).toMatchObject({ kind: 'unusable', problem: 'the answer was empty' });
    expect(text("I'm sorry, I can't help with identifying that.")).toMatchObject({ kind: 'unusable', problem: expect.stringContaining('declined') });
    expect(text('{}[]')).toMatchObject({ kind: 'unusable', problem: expect.stringContaining('not an answer') });
    expect(readVisionAnswer({ content: [], stop_reason: 'end_turn' })).toMatchObject({
      kind: 'unusable',
      problem: expect.stringContaining('no text'),
    });
    // A refusal stopped by the API is unusable whatever words came before it.
    expect(readVisionAnswer({ content: [{ type: 'text', text: '- build: red X', citations: null }], stop_reason: 'refusal' })).toEqual({
      kind: 'unusable',
      problem: 'the model refused to answer (stop_reason refusal)',
    });
  });
});

test.describe('the per-sample gate', () => {
  test('a page whose text is in the tree never takes a screenshot question', async ({ page }) => {
    await page.setContent(PROFILE);
    const { ask, asked } = recordingAsk([{ kind: 'facts', text: 'x' }]);
    const gate = new VisionGate(ask, { goal: 'read the profile', onNote: () => {} });
    expect(await gate.look(page, await observe(page), 2, signal())).toBeUndefined();
    expect(asked).toHaveLength(0);
  });

  test('a picture without a text alternative over half the viewport is asked about; the same picture with alt text is not', async ({ page }) => {
    await page.setContent(noticePage(''));
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    const unnamed = await observe(page);
    expect(unnamed.confidence.unnamedImageShare).toBeGreaterThan(0.3);
    const { ask, asked } = recordingAsk([{ kind: 'facts', text: '- notice: Closed on 24 December' }]);
    const gate = new VisionGate(ask, { goal: 'read the opening hours', onNote: () => {} });
    expect(await gate.look(page, unnamed, 2, signal())).toBe(`${VISION_SECTION_TITLE}\n- notice: Closed on 24 December`);
    expect(asked[0]!.question).toContain('pictures without a text alternative cover');

    // alt="" declares a picture decoration: not counted either.
    await page.setContent(noticePage(' alt=""'));
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    expect((await observe(page)).confidence.unnamedImageShare).toBe(0);

    await page.setContent(noticePage(' alt="Closed on 24 December"'));
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    const named = await observe(page);
    expect(named.confidence.unnamedImageShare).toBe(0);
    expect(named.text).toContain('Closed on 24 December');
    expect(await gate.look(page, named, 3, signal())).toBeUndefined();
    expect(asked).toHaveLength(1);
  });

  test('the same screenshot and page state is asked once; a visible change asks again', async ({ page }) => {
    await page.setContent(CANVAS);
    const { ask, asked } = recordingAsk([
      { kind: 'facts', text: '- chart: peaks in June at 502' },
      { kind: 'facts', text: '- chart: now red' },
    ]);
    const gate = new VisionGate(ask, { goal: 'find the month with most signups', onNote: () => {} });
    const first = await gate.look(page, await observe(page), 2, signal());
    expect(first).toBe(`${VISION_SECTION_TITLE}\n- chart: peaks in June at 502`);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(asked[0]!.question).toContain('a canvas covers');
    expect(await gate.look(page, await observe(page), 3, signal())).toBe(first);
    expect(await gate.look(page, await observe(page), 4, signal())).toBe(first);
    expect(asked).toHaveLength(1);
    expect(gate.stats).toEqual({ asked: 1, reused: 2, unusable: 0 });
    await page.evaluate(() => {
      const ctx = (document.getElementById('c') as HTMLCanvasElement).getContext('2d')!;
      ctx.fillStyle = 'red';
      ctx.fillRect(0, 0, 300, 300);
    });
    expect(await gate.look(page, await observe(page), 5, signal())).toContain('now red');
    expect(asked).toHaveLength(2);
  });

  test('unusable answers are noted, not asked again for the same state, and switch vision off after two in a row', async ({ page }) => {
    await page.setContent(CANVAS);
    const notes: string[] = [];
    let calls = 0;
    const ask: AskVision = async () => {
      calls += 1;
      if (calls === 1) return { kind: 'unusable', problem: 'the answer was empty' };
      throw new Error('model m: overloaded (529) after retries\nstack');
    };
    const gate = new VisionGate(ask, { goal: 'g', onNote: note => notes.push(note) });
    const first = await gate.look(page, await observe(page), 2, signal());
    expect(first).toMatch(/^Visual observations unavailable/);
    expect(await gate.look(page, await observe(page), 3, signal())).toBe(first);
    expect(calls).toBe(1);
    await page.evaluate(() => document.querySelector('h1')!.append(' (updated)'));
    expect(await gate.look(page, await observe(page), 4, signal())).toMatch(/^Visual observations unavailable/);
    expect(calls).toBe(2);
    await page.evaluate(() => document.querySelector('h1')!.append(' again'));
    expect(await gate.look(page, await observe(page), 5, signal())).toBeUndefined();
    expect(calls).toBe(MAX_UNUSABLE_ANSWERS);
    expect(notes).toEqual([
      'step 2: vision answer not used — the answer was empty',
      'step 4: vision answer not used — the call failed: model m: overloaded (529) after retries',
      'vision switched off for this sample after 2 unusable answers in a row',
    ]);
  });
});

test.describe('in a model-decided sample', () => {
  let env: Awaited<ReturnType<typeof useScriptedModel>>;
  let server: ModelServer;

  test.beforeAll(async () => {
    env = await useScriptedModel();
    server = env.server;
  });
  test.afterAll(async () => env.restore());
  test.beforeEach(() => server.reset());

  function checksTask() {
    const file = path.join(tempDir(), 'widget_checks.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        task_id: 'widget_checks',
        start_url: `${WIDGETS}/svg-status`,
        system_prompt: 'Report CI check results.',
        goal: 'Count the failing checks and screenshot the list.',
        output_schema: { failing: 'number', checks_heading: 'string' },
        required_fields: ['failing'],
        allowed_domains: ['127.0.0.1:4102'],
      }),
    );
    return loadTaskFile(file);
  }

  const steps = [
    { tool: 'screenshot', args: { label: 'checks' } },
    { tool: 'wait', args: { seconds: 0.2 } },
    { tool: 'extract', target: { text: 'checks' }, args: { field: 'checks_heading' } },
    { tool: 'done', args: { extracted: { failing: 2 } } },
  ];

  test('several steps on the same checks page: one vision call, its answer in every later prompt, counted apart', async ({ agent }) => {
    server.setScript('widget_checks', 'one', {
      steps,
      vision: [{ contains: '/svg-status', answer: '- build (windows-latest): red X\n- e2e tests: red X' }],
    });
    const result = await agent.run(checksTask(), sampleOf({ sample_id: 'one' }));
    expect(server.errors).toEqual([]);
    expect(result.status).toBe('done');
    const vision = server.requests.filter(r => r.kind === 'vision');
    const turns = server.requests.filter(r => r.kind === 'decider');
    expect(vision).toHaveLength(1);
    expect(turns.every(t => t.lastUserText.includes('- e2e tests: red X'))).toBe(true);
    expect(result.usage.by_purpose?.vision).toMatchObject({ calls: 1 });
    expect(result.usage.by_purpose?.decide?.calls).toBe(turns.length);
    expect(result.usage.model_calls).toBe(server.requests.filter(r => r.key.sampleId === 'one' && r.response.status === 200).length);
  });

  test('an empty vision answer is recorded and the sample goes on without it, asking no more for that page', async ({ agent }) => {
    server.setScript('widget_checks', 'blank', { steps, vision: [{ contains: '/svg-status', answer: '' }] });
    const result = await agent.run(checksTask(), sampleOf({ sample_id: 'blank' }));
    expect(server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(server.requests.filter(r => r.kind === 'vision')).toHaveLength(1);
    expect(result.notes).toContain('step 2: vision answer not used — the answer was empty');
    expect(server.requests.filter(r => r.kind === 'decider').at(-1)!.lastUserText).toContain('Visual observations unavailable');
  });
});
