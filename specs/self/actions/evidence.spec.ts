import * as fs from 'node:fs';
import { FULL_PAGE_MAX_HEIGHT, fullPageShot } from '../../../agent/actions/screenshot';
import { sha256File } from '../../../agent/evidence/hash';
import { expect, test, WIDGETS } from './harness';

test.describe('screenshot', () => {
  test('full page and element screenshots are hashed evidence with safe labels', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/svg-status` });
    const full = await harness.ok('screenshot', { label: 'checks' });
    const artifact = full.effects!.artifact!;
    expect(artifact).toMatchObject({ filename: '01_checks.png', kind: 'screenshot', label: 'checks', source_url: `${WIDGETS}/svg-status` });
    expect(sha256File(harness.store.pathOf(artifact.filename))).toBe(artifact.sha256);
    await harness.look();
    const element = await harness.ok('screenshot', { label: '../../evil label', target: 'css=h1' });
    expect(element.effects!.artifact!.filename).toMatch(/^02_[a-z0-9_]+\.png$/);
    expect(element.element).toEqual({ css: 'h1' });
    const viewportOnly = await harness.ok('screenshot', { label: 'top', full_page: false });
    expect(fs.statSync(harness.store.pathOf(viewportOnly.effects!.artifact!.filename)).size).toBeGreaterThan(1000);
    expect(page.url()).toBe(`${WIDGETS}/svg-status`);
  });

  test('a full page far wider and taller than the window is saved as the window wide and the cap high, and the note says so', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/oversized-article` });
    const truth = (await (await fetch(`${WIDGETS}/__truth.json`)).json()).cases['oversized-article'];
    const shot = await harness.ok('screenshot', { label: 'page' });
    const artifact = shot.effects!.artifact!;
    const png = fs.readFileSync(harness.store.pathOf(artifact.filename));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, FULL_PAGE_MAX_HEIGHT]);
    const note = /^the top 8,000 px of a page ([\d,]+) px high \(the full-page cap\); 1,280 px of its ([\d,]+) px width \(the window's\)$/.exec(
      artifact.note ?? '',
    );
    expect(note, artifact.note).not.toBeNull();
    const [high, wide] = note!.slice(1).map(n => Number(n.replace(/,/g, '')));
    expect(high).toBeGreaterThan(truth.height);
    expect(wide).toBeGreaterThanOrEqual(truth.width);
    expect(shot.description).toContain(artifact.note);
  });

  test('a full page that takes too long is saved as the window, and the note says why', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/oversized-article` });
    const shot = await fullPageShot(page, { fullPageMs: 1, viewportMs: 15_000 });
    expect([shot.bytes.readUInt32BE(16), shot.bytes.readUInt32BE(20)]).toEqual([1280, 900]);
    expect(shot.note).toMatch(/^the window only: the full page \([\d,]+ × [\d,]+ px\) took over 0\.001 s$/);
  });

  test('a screenshot label is required', async ({ harness }) => {
    const result = await harness.act('screenshot', {});
    expect(result.error).toContain('Invalid arguments for screenshot');
    expect(result.error).toContain('label');
  });
});

test.describe('extract', () => {
  test('values are read from the DOM with provenance, coerced and pattern-matched', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/late-hydration?hydrate_ms=0` });
    await harness.ok('wait', { text: 'Account overview' });
    await harness.look();
    const owner = await harness.ok('extract', { field: 'owner', target: 'css=[data-field="Owner"]' });
    expect(owner.effects?.extracted).toMatchObject({
      field: 'owner',
      value: 'Grace Hopper',
      provenance: { source: 'dom', url: `${WIDGETS}/late-hydration?hydrate_ms=0` },
    });
    const balance = await harness.ok('extract', { field: 'balance', target: 'css=[data-field="Balance"]', type: 'number' });
    expect(balance.effects?.extracted?.value).toBe(1240.5);
    const id = await harness.ok('extract', { field: 'id', target: 'css=[data-field="Account ID"]', pattern: 'ACC-(\\d+)' });
    expect(id.effects?.extracted?.value).toBe('20931');
    const missing = await harness.ok('extract', { field: 'fax', target: 'css=[data-field="Fax"]', missing: 'null' });
    expect(missing.effects?.extracted?.value).toBeNull();
    const all = await harness.ok('extract', { field: 'labels', target: 'css=dt', all: true });
    expect(all.effects?.extracted?.value).toEqual(['Account ID', 'Owner', 'Plan', 'Balance', 'Renewal date']);
  });
});

test.describe('wait', () => {
  test('waits for late content, bounded, and explains a timeout', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/late-hydration?hydrate_ms=800` });
    const text = await harness.ok('wait', { text: 'Account overview', seconds: 5 });
    expect(text.description).toBe('Text "Account overview" is visible');
    const element = await harness.ok('wait', { target: 'Download statement' });
    expect(element.description).toContain('is visible');
    await harness.open('polling', `<p>Live</p><script>setInterval(() => fetch('/health'), 100)</script>`);
    const busy = await harness.ok('wait', { network_idle: true, seconds: 1 });
    expect(busy.description).toBe('The network was still busy after 1s (the page keeps polling); carrying on');
    const never = await harness.act('wait', { text: 'Payment overdue', seconds: 1 });
    expect(never).toMatchObject({ success: false, infra: false });
    expect(never.error).toContain('Still not there after 1s');
  });
});

test.describe('control actions', () => {
  test('save_progress, done and fail carry their effects', async ({ harness }) => {
    const saved = await harness.ok('save_progress', { data: { items: [1, 2] }, note: 'page 1 of 3' });
    expect(saved.effects?.progress).toEqual({ data: { items: [1, 2] }, note: 'page 1 of 3' });
    const done = await harness.ok('done', { extracted: { name: 'Ada' } });
    expect(done.effects?.terminal).toEqual({ kind: 'done', extracted: { name: 'Ada' } });
    const failed = await harness.ok('fail', { reason: 'profile does not exist' });
    expect(failed.effects?.terminal).toEqual({ kind: 'fail', reason: 'profile does not exist' });
    const invalid = await harness.act('done', { extracted: 'Ada' });
    expect(invalid.error).toContain('Invalid arguments for done');
  });
});
