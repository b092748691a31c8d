import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCREENSHOT_NOTE, withScreenshot } from '../../../agent/decide/prompt';
import { screenshotBand, VisionGate, visionReasons } from '../../../agent/loop/vision-gate';
import { observe, type DomConfidence } from '../../../agent/snapshot';
import { loadTaskFile } from '../../../agent/task/load-task';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { tempDir } from '../helpers/temp';
import { SITE, SITE_HOST } from '../helpers/sites';

const WIDGETS = SITE.widgets;
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
  lookAlikeControls: 0,
  controlsInView: 20,
  ...c,
});

const signal = () => new AbortController().signal;

test.describe('when a screenshot rides in the decision: one rule, measured on the viewport, the same on every page', () => {
  test('any reason a screenshot resolves sends it, whatever else the page holds; a page whose text is in the tree has none', () => {
    // No page-wide score decides: the same icons beside many named controls still send it.
    expect(visionReasons(confidence({ score: 0.95, svgOnlyIcons: 11, interactive: 43 }))).toEqual([
      '11 icon(s) shown only as unlabeled SVG (status or meaning carried by shape or colour)',
    ]);
    expect(visionReasons(confidence({ canvasShare: 0.2 }))).toEqual(['a canvas covers 20% of the viewport (drawn content is not in the tree)']);
    expect(visionReasons(confidence({ unnamedImageShare: 0.45, viewportTextChars: 120 }))).toEqual([
      'pictures without a text alternative cover 45% of the viewport (text or content set as an image is not in the tree)',
    ]);
    expect(visionReasons(confidence({ lookAlikeControls: 6, controlsInView: 8 }))).toEqual([
      '6 of the 8 controls in view have no name and read alike in the page state (only how they look tells them apart)',
    ]);
    // Three bare share icons among sixty links: the page's words are in the tree.
    expect(visionReasons(confidence({ lookAlikeControls: 3, controlsInView: 60 }))).toEqual([]);
    // Name-less controls the page state tells apart (a hint, a place) are in words; a photo beside an article's text
    // adds nothing; a page still loading or a short one has its text in the tree.
    expect(visionReasons(confidence({ score: 0.3, unlabeledInteractive: 2, interactive: 4, lookAlikeControls: 2 }))).toEqual([]);
    expect(visionReasons(confidence({ unnamedImageShare: 0.45, viewportTextChars: 1200 }))).toEqual([]);
    expect(visionReasons(confidence({ score: 0.4, semanticNodes: 1, interactive: 0 }))).toEqual([]);
  });

  test('controls told apart only by colour or shape send the rows that hold them; the same controls told apart by their row do not', async ({
    page,
  }) => {
    const gate = new VisionGate();
    for (const slug of ['colour-tiles', 'pie-menu', 'tic-tac-toe']) {
      await page.goto(`${WIDGETS}/${slug}`);
      const observation = await observe(page);
      const shot = await gate.screenshotFor(page, observation, signal());
      expect(shot?.reasons.join(' ')).toContain('controls in view have no name and read alike');
      expect(shot?.band).toBe(true);
    }
    // Each flag is named by its row (near=): the page state says which is which.
    await page.goto(`${WIDGETS}/flag-inbox`);
    expect(await gate.screenshotFor(page, await observe(page), signal())).toBeUndefined();
  });
});

test.describe('the gate', () => {
  test('a page whose text is in the tree takes no screenshot', async ({ page }) => {
    await page.setContent(PROFILE);
    expect(await new VisionGate().screenshotFor(page, await observe(page), signal())).toBeUndefined();
  });

  test('a picture without a text alternative over half the viewport is sent as pixels; the same picture with alt text is not', async ({ page }) => {
    const gate = new VisionGate();
    await page.setContent(noticePage(''));
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    const unnamed = await observe(page);
    expect(unnamed.confidence.unnamedImageShare).toBeGreaterThan(0.3);
    const shot = await gate.screenshotFor(page, unnamed, signal());
    expect(shot?.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(shot?.reasons.join()).toContain('pictures without a text alternative cover');

    // alt="" declares a picture decoration: not counted either.
    await page.setContent(noticePage(' alt=""'));
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    expect((await observe(page)).confidence.unnamedImageShare).toBe(0);

    await page.setContent(noticePage(' alt="Closed on 24 December"'));
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    const named = await observe(page);
    expect(named.text).toContain('Closed on 24 December');
    expect(await gate.screenshotFor(page, named, signal())).toBeUndefined();
  });

  test('a canvas chart is sent as the viewport as it stands, with why the tree is not enough', async ({ page }) => {
    await page.setContent(CANVAS);
    const shot = await new VisionGate().screenshotFor(page, await observe(page), signal());
    expect(shot?.reasons).toEqual([expect.stringContaining('a canvas covers')]);
    const blocks = withScreenshot([{ type: 'text', text: 'page state' }], shot!);
    expect(blocks.map(b => b.type)).toEqual(['text', 'image', 'text']);
    // The chart and the rows around it, full width: most of this viewport, but not all of it.
    expect(shot?.band).toBe(true);
    expect((blocks[2] as { text: string }).text).toBe(
      `${SCREENSHOT_NOTE} ${shot!.reasons[0]}. It shows the rows of the viewport that hold them, full width. Read what only the pixels show from it; act on refs from the page state.`,
    );
    // A chart over most of the viewport sends the whole viewport.
    await page.setViewportSize({ width: 1280, height: 640 });
    const whole = await new VisionGate().screenshotFor(page, await observe(page), signal());
    expect(whole?.band).toBe(false);
    expect(withScreenshot([], whole!)[1]).toMatchObject({ text: expect.stringContaining('It shows the whole viewport.') });
  });

  test('status icons in a few rows: only those rows of the viewport, full width, are sent (an image costs by its area)', async ({ page }) => {
    const row = (i: number) =>
      `<li style="height:40px"><svg width="16" height="16"><circle cx="8" cy="8" r="7" fill="${i % 3 ? 'green' : 'red'}"/></svg> check ${i}</li>`;
    await page.setContent(
      `<title>Checks</title><main><h1>Checks</h1><ul style="margin:0">${Array.from({ length: 6 }, (_, i) => row(i)).join('')}</ul>${Array.from({ length: 20 }, (_, i) => `<p>Note ${i}</p>`).join('')}</main>`,
    );
    const observation = await observe(page);
    const region = observation.confidence.pixelOnlyRegion!;
    expect(region.height).toBeGreaterThan(150);
    const shot = await new VisionGate().screenshotFor(page, observation, signal());
    expect(shot?.band).toBe(true);
    const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
    const viewport = page.viewportSize()!;
    const band = screenshotBand(region, viewport)!;
    expect(size(shot!.png)).toEqual({ width: viewport.width, height: band.height });
    expect(band.height).toBeLessThan(viewport.height / 2);
    expect(band.y).toBeLessThanOrEqual(region.y);
    expect(band.y + band.height).toBeGreaterThanOrEqual(region.y + region.height);
  });
});

test.describe('in a model-decided sample', () => {
  const model = useScriptedModel({}, { resetEachTest: true });

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
        allowed_domains: [SITE_HOST.widgets],
      }),
    );
    return loadTaskFile(file);
  }

  /** A model that reads the failing checks off the screenshot its decision request carries (and fails without one). */
  const steps = [
    { tool: 'screenshot', args: { label: 'checks' } },
    { tool: 'extract', target: { text: 'checks' }, args: { field: 'checks_heading' } },
    {
      what: 'count the red X marks the screenshot shows',
      decide: ({ sight }: { sight?: string }) => {
        if (sight === undefined) throw new Error('this decision request carried no screenshot');
        return { tool: 'done', args: { extracted: { failing: (sight.match(/red X/g) ?? []).length } } };
      },
    },
  ];

  test('on a page of pixel-only icons every decision request carries the screenshot after the cached prefix; no separate vision call', async ({
    agent,
  }) => {
    model.server.setScript('widget_checks', 'one', {
      steps,
      vision: [{ contains: '/svg-status', answer: '- build (windows-latest): red X\n- e2e tests: red X\n- the other 5: green check mark' }],
    });
    const result = await agent.run(checksTask(), sampleOf({ sample_id: 'one' }));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.extracted.failing!.value).toBe(2);
    const turns = model.server.requests.filter(r => r.kind === 'decider');
    expect(model.server.requests.filter(r => r.kind === 'vision')).toEqual([]);
    expect(turns.length).toBeGreaterThanOrEqual(2);
    expect(turns.every(t => t.hasImage && t.imageHashes.length === 1)).toBe(true);
    expect(turns.every(t => t.lastUserText.includes(`${SCREENSHOT_NOTE} `) && t.lastUserText.includes('icon(s) shown only as unlabeled SVG'))).toBe(
      true,
    );
    // The prefix is the same bytes as without a screenshot: tools and system read from the cache from the second request on.
    expect(turns.every(t => JSON.stringify(t.system) === JSON.stringify(turns[0]!.system))).toBe(true);
    expect(turns[1]!.response.usage!.cache_read_input_tokens).toBeGreaterThan(0);
    expect(result.usage.by_purpose?.vision).toBeUndefined();
    expect(result.usage.by_purpose?.decide).toMatchObject({ calls: turns.length, with_screenshot: turns.length });
    expect(result.usage.model_calls).toBe(model.server.requests.filter(r => r.key.sampleId === 'one' && r.response.status === 200).length);
  });

  test('a page whose text is in the tree sends no screenshot, nor the evidence screenshot the task requires; the scripted eye sees nothing', async ({
    agent,
  }) => {
    const task = bundledTask('people_profile');
    expect(task.spec.required_artifacts).toEqual(['profile']);
    model.server.setScript('people_profile', 'ada-plain', peopleProfileScript('ada'));
    const result = await agent.run(task, sampleOf({ sample_id: 'ada-plain', username: 'ada' }));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(model.server.requests.some(r => r.hasImage)).toBe(false);
    expect(result.usage.by_purpose?.decide?.with_screenshot).toBeUndefined();
  });

  test('a shape only pixels show: the evidence screenshot the task requires is not shown; one the model takes to look is, in its next decision, which answers from it', async ({
    agent,
  }) => {
    const file = path.join(tempDir(), 'widget_shape.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        task_id: 'widget_shape',
        start_url: `${WIDGETS}/shape-quiz`,
        system_prompt: 'Answer the quiz on the page.',
        goal: 'Click the button that names the drawn shape, then read the verdict.',
        output_schema: { verdict: 'string' },
        required_fields: ['verdict'],
        required_artifacts: ['quiz'],
        allowed_domains: [SITE_HOST.widgets],
      }),
    );
    model.server.setScript('widget_shape', 'one', {
      steps: [
        { tool: 'screenshot', args: { label: 'quiz', full_page: false } },
        { tool: 'screenshot', args: { label: 'shape', full_page: false } },
        {
          what: 'click the answer the screenshot shows',
          decide: ({ sight }: { sight?: string }) => {
            if (sight === undefined) throw new Error('this decision request carried no screenshot');
            return { tool: 'click', target: { role: 'button', name: sight } };
          },
        },
        { tool: 'extract', target: { role: 'status', name: 'Right: a triangle' }, args: { field: 'verdict' } },
        { tool: 'done', args: { extracted: {} } },
      ],
      vision: [{ contains: '/shape-quiz', answer: 'triangle' }],
    });
    const result = await agent.run(loadTaskFile(file), sampleOf({ sample_id: 'one' }));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.extracted.verdict!.value).toBe('Right: a triangle');
    const turns = model.server.requests.filter(r => r.kind === 'decider' && r.key.taskId === 'widget_shape');
    // The page alone sends nothing (its words are in the tree), nor the evidence the task requires ("quiz"); the look
    // the model took ("shape") is in the next request, and only there.
    expect(turns.map(t => t.hasImage)).toEqual([false, false, true, false, false]);
    expect(turns[2]!.lastUserText).toContain('It shows your screenshot 02_shape.png as saved.');
  });
});
