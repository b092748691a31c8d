import { ensureFixtureSites } from '../fixtures/serve';
import { launchChromium, CONTEXT_OPTIONS } from './lib/browser';
import { observe } from '../agent/snapshot';
(async () => {
  const sites = await ensureFixtureSites();
  const browser = await launchChromium();
  const ctx = await browser.newContext(CONTEXT_OPTIONS);
  const page = await ctx.newPage();
  const truth = await (await fetch('http://127.0.0.1:4104/__truth.json')).json();
  const commit: any = Object.values(truth.commits).find((c: any) => c.pr_number);
  const urls = [
    ...['svg-status','canvas-chart','form-tabs','date-picker','cascading','custom-combobox','native-select','autocomplete','shadow-dom','iframe-same','iframe-cross','infinite-scroll','load-more','big','late-hydration','modal','upload','downloads','new-tab','dialogs'].map(s => `http://127.0.0.1:4102/${s}`),
    'http://127.0.0.1:4101/people/ada', 'http://127.0.0.1:4103/', `http://127.0.0.1:4104/`, `http://127.0.0.1:4108/`, 'http://127.0.0.1:4107/',
  ];
  for (const url of urls) {
    try { await page.goto(url); await page.waitForTimeout(300); } catch (e) { console.log(url, 'ERR'); continue; }
    const o = await observe(page);
    const c = o.confidence;
    console.log(`${c.score.toFixed(2)} canvas=${c.canvasShare} unl=${c.unlabeledInteractive} svg=${c.svgOnlyIcons} sem=${c.semanticNodes} int=${c.interactive} tok=${o.stats.estimatedTokens} ${url}`);
  }
  console.log(JSON.stringify(commit).slice(0, 300));
  await browser.close(); await sites.close();
})();
