import { expect, test, type Page } from '@playwright/test';
import { MASKED_VALUE, observe } from '../../../agent/snapshot';

const PROFILE = `
<title>Ada Lovelace (ada)</title>
<header><a href="/">Home</a><nav><a href="/explore">Explore</a><a href="/pricing">Pricing</a></nav></header>
<main>
  <h1>Ada Lovelace</h1>
  <p>Poetical scientist. Writing the first programs for engines that do not exist yet.</p>
  <p>1,234 followers · 12 following</p>
  <button id="follow" onclick="this.textContent = 'Unfollow'">Follow</button>
  <a href="/ada/analytical-engine">analytical-engine</a>
  <a href="/ada/bernoulli">bernoulli-numbers</a>
  <ul><li>London, UK</li><li>Analytical Engines Ltd</li></ul>
  <form>
    <label>Search <input id="search" required></label>
    <label>Password <input id="password" type="password"></label>
    <label><input id="remember" type="checkbox"> Remember me</label>
    <label>Country <select id="country"><option>France</option><option>Spain</option></select></label>
    <button type="button" disabled>Save</button>
  </form>
  <h2>Repositories</h2>
  <table><tr><th>Name</th><th>Stars</th></tr><tr><td>engine</td><td>4,821</td></tr></table>
</main>
<footer><a href="/terms">Terms</a></footer>`;

/** The profile at a real-looking address, so its "Home" link points at the site's front page. */
async function openProfile(page: Page): Promise<void> {
  await page.route('http://profile.test/**', route => route.fulfill({ contentType: 'text/html; charset=utf-8', body: PROFILE }));
  await page.goto('http://profile.test/ada');
}

test.describe('observe() on a live page', () => {
  test('every ref in the output resolves with page.getByRef to the element the line describes', async ({ page }) => {
    await page.setContent(PROFILE);
    const observation = await observe(page);
    const described = observation.nodes.filter(
      node => node.ref && node.name && ['link', 'button', 'heading', 'textbox', 'checkbox', 'combobox'].includes(node.role),
    );
    expect(described.length).toBeGreaterThanOrEqual(8);
    for (const node of described) {
      const locator = page.getByRef(node.ref ?? '');
      await expect(locator).toHaveRole(node.role as Parameters<typeof page.getByRole>[0]);
      await expect(locator).toHaveAccessibleName(node.name ?? '');
    }
    const follow = observation.nodes.find(node => node.role === 'button' && node.name === 'Follow');
    await page.getByRef(follow?.ref ?? '').click();
    await expect(page.locator('#follow')).toHaveText('Unfollow');
  });

  test('collapses page chrome into stubs, keeps content and the home link, and prints the header', async ({ page }) => {
    await openProfile(page);
    const { text, title, scroll } = await observe(page);
    expect(title).toBe('Ada Lovelace (ada)');
    expect(text).toMatch(
      /^URL: "http:\/\/profile.test\/ada"\nTitle: "Ada Lovelace \(ada\)"\nScroll: 0\/0 px \(viewport 900\) · \d+ nodes, \d+ lines, 2 collapsed, 0 below the fold\n/,
    );
    expect(text).toMatch(/\[e\d+\] banner \(collapsed: 2 links — "Explore", "Pricing"\)\n \[e\d+\] link "Home" → \/\n/);
    expect(text).toMatch(/\[e\d+\] contentinfo \(collapsed: 1 link — "Terms"\)$/);
    expect(text).toMatch(/\[e\d+\] heading "Ada Lovelace" \(level 1\)/);
    expect(text).toMatch(/\[e\d+\] link "analytical-engine" → \/ada\/analytical-engine/);
    expect(text).toMatch(/\[e\d+\] text "1,234 followers · 12 following"/);
    expect(text).toMatch(/row "engine \| 4,821"/);
    expect(scroll).toEqual({ x: 0, y: 0, maxY: 0, viewportHeight: 900, atEnd: true });
  });

  test('keyword matches inside chrome show under the stub of their region', async ({ page }) => {
    await openProfile(page);
    const { text } = await observe(page, { keywords: ['Pricing'] });
    expect(text).toMatch(/\[e\d+\] banner \(collapsed: 1 link — "Explore"\)\n \[e\d+\] link "Home" → \/\n \[e\d+\] link "Pricing" → \/pricing\n/);
  });

  test('shows current values and states, marks required fields, and never prints a password', async ({ page }) => {
    await page.setContent(PROFILE);
    await page.fill('#search', 'hello');
    await page.fill('#password', 'correct horse battery');
    await page.check('#remember');
    await page.selectOption('#country', 'Spain');
    const { text, nodes } = await observe(page);
    expect(text).toMatch(/\[e\d+\] textbox "Search" value="hello" \(required\)/);
    expect(text).toMatch(/\[e\d+\] checkbox "Remember me" \(checked\)/);
    expect(text).toMatch(/\[e\d+\] combobox "Country" value="Spain" options: "France", "Spain"/);
    expect(text).toMatch(/\[e\d+\] button "Save" \(disabled\)/);
    expect(text).not.toContain('correct horse');
    expect(nodes.find(node => node.name === 'Password')?.value).toBe(MASKED_VALUE);
  });

  test('refs inside an iframe (fNeM) resolve and act inside the frame', async ({ page }) => {
    await page.setContent(`<h1>Embedded form</h1>
      <iframe srcdoc="<label>Name <input id='name'></label><button onclick=&quot;document.body.dataset.sent=document.getElementById('name').value&quot;>Send</button>"></iframe>`);
    await expect(page.frameLocator('iframe').getByRole('button', { name: 'Send' })).toBeVisible();
    const observation = await observe(page);
    const textbox = observation.nodes.find(node => node.role === 'textbox');
    const send = observation.nodes.find(node => node.role === 'button' && node.name === 'Send');
    expect(textbox?.ref).toMatch(/^f\d+e\d+$/);
    expect(send?.frameRef).toMatch(/^e\d+$/);
    expect(observation.text).toMatch(new RegExp(`\\[${send?.frameRef}\\] iframe\\n \\[${textbox?.ref}\\] textbox "Name"`));
    await page.getByRef(textbox?.ref ?? '').fill('Grace');
    await page.getByRef(send?.ref ?? '').click();
    await expect(page.frameLocator('iframe').locator('body')).toHaveAttribute('data-sent', 'Grace');
  });

  test('scroll position and the fold are reported after scrolling', async ({ page }) => {
    const items = Array.from({ length: 80 }, (_, i) => `<p style="height:60px">Paragraph number ${i}</p>`).join('');
    await page.setContent(`<main>${items}</main>`);
    await page.evaluate(() => window.scrollTo(0, 1200));
    const observation = await observe(page);
    expect(observation.scroll.y).toBe(1200);
    expect(observation.scroll.atEnd).toBe(false);
    const onScreen = observation.nodes.filter(node => node.inViewport).map(node => node.text);
    expect(onScreen).toContain('Paragraph number 20');
    expect(onScreen).not.toContain('Paragraph number 0');
    expect(observation.stats.belowFold).toBeGreaterThan(0);
  });

  test('an aborted signal rejects observe()', async ({ page }) => {
    await page.setContent(PROFILE);
    const controller = new AbortController();
    controller.abort(new Error('step deadline'));
    await expect(observe(page, { signal: controller.signal })).rejects.toThrow();
  });
});

// Whether to ask vision is decided outside observe() (agent/loop/vision-gate.ts, specs/self/decide/vision.spec.ts).
test.describe('confidence', () => {
  const CANVAS = `<title>Dashboard</title><main><h1>Signups</h1><canvas width="1000" height="600"></canvas></main>`;

  test('a normal page scores high', async ({ page }) => {
    await page.setContent(PROFILE);
    const observation = await observe(page);
    expect(observation.confidence.score).toBeGreaterThanOrEqual(0.85);
  });

  test('a canvas page scores low, with the canvas share of the viewport', async ({ page }) => {
    await page.setContent(CANVAS);
    const observation = await observe(page);
    expect(observation.confidence.score).toBeLessThan(0.6);
    expect(observation.confidence.canvasShare).toBeGreaterThan(0.3);
  });
});
