import { dispatch } from '../../../agent/actions/core/dispatch';
import { resolveTarget } from '../../../agent/actions/targets/target';
import { expect, test, WIDGETS } from './harness';

test.describe('target resolution', () => {
  test('a ref from the latest snapshot; the element is logged by role and name', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const ref = harness.ref('button', 'Accept all');
    const result = await harness.ok('click', { target: ref });
    expect(result.element).toEqual({ role: 'button', name: 'Accept all' });
    expect(result.description).toBe(`Clicked [${ref}] button "Accept all"`);
    await harness.ok('click', { target: 'Continue to checkout' });
    await expect(page.locator('#result')).toHaveText('Checkout started');
  });

  test('visible text goes through the snapshot first, then exact text, then partial text', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const viaSnapshot = await harness.ok('click', { target: 'Reject non-essential' });
    expect(viaSnapshot.description).toMatch(/^Clicked \[(f\d+)?e\d+\] button "Reject non-essential"$/);
    await harness.look();
    // Not a snapshot name: Playwright's text match, exact before partial.
    const partial = await harness.ok('click', { target: 'Continue to check' });
    expect(partial.element).toEqual({ text: 'Continue to check' });
    await expect(page.locator('#result')).toHaveText('Checkout started');
  });

  test('role "name" as the page state prints it, and css= as a last resort', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.ok('click', { target: 'button "Accept all"' });
    const css = await harness.ok('click', { target: 'css=#continue' });
    expect(css.element).toEqual({ css: '#continue' });
    await expect(page.locator('#result')).toHaveText('Checkout started');
  });

  test('quoted text that does not start with a role is plain text', async ({ harness, page }) => {
    await harness.open('quotes', `<button onclick="out.textContent = 'ok'">say "hello"</button><output id="out"></output>`);
    await harness.ok('click', { target: 'say "hello"' });
    await expect(page.locator('#out')).toHaveText('ok');
  });

  test('a copied page-state line resolves to its ref', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const ref = harness.ref('button', 'Accept all');
    const result = await harness.ok('click', { target: `[${ref}] button "Accept all"` });
    expect(result.element).toEqual({ role: 'button', name: 'Accept all' });
  });

  test('a stale ref names its replacement and asks for a fresh look', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const stale = harness.ref('button', 'Accept all');
    // As in the loop: an action against this snapshot, then the page changes and a new snapshot is taken. The
    // button comes back elsewhere (a control redrawn in its place would keep its ref): it is another control.
    await harness.ok('hover', { target: stale });
    await page.evaluate(() => {
      const old = document.querySelector('[data-choice=all]')!;
      const fresh = old.cloneNode(true);
      old.parentElement!.prepend(document.createElement('br'), fresh);
      old.remove();
    });
    await harness.look();
    const replacement = harness.ref('button', 'Accept all');
    expect(replacement).not.toBe(stale);
    const result = await harness.act('click', { target: stale });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toBe(
      `${stale} is no longer on the page; similar: [${replacement}] button "Accept all" — take a fresh look at the page state`,
    );
  });

  test('an old ref used after two snapshots with no action between is still a clear failure', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const stale = harness.ref('button', 'Accept all');
    await page.evaluate(() => document.querySelector('[data-choice=all]')!.remove());
    await harness.look();
    const result = await harness.act('click', { target: stale });
    expect(result).toMatchObject({
      success: false,
      infra: false,
      error: `${stale} is not in the latest page state — take a fresh look at the page state and use a current ref`,
    });
  });

  test('a ref that never existed asks for a fresh look', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const result = await harness.act('click', { target: 'e999' });
    expect(result.error).toBe('e999 is not in the latest page state — take a fresh look at the page state and use a current ref');
  });

  test('an ambiguous name lists the candidates', async ({ harness }) => {
    await harness.open('ambiguous', '<ul><li>Draft A <button>Delete</button></li><li>Draft B <button>Delete</button></li></ul>');
    const unseen = await harness.act('click', { target: 'Delete' });
    expect(unseen.error).toBe('text "Delete" matches 2 elements — use the ref of the one you mean');
    await harness.look();
    const seen = await harness.act('click', { target: 'Delete' });
    expect(seen.error).toMatch(
      /^"Delete" matches 2 elements: \[(f\d+)?e\d+\] button "Delete", \[(f\d+)?e\d+\] button "Delete" — use the ref of the one you mean$/,
    );
  });

  test('a missing element is a logic failure with a next step', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    const result = await harness.act('click', { target: 'Proceed to payment' });
    expect(result).toMatchObject({
      success: false,
      infra: false,
      error: 'No element matches text "Proceed to payment" — check the page state for the exact text, or scroll to reveal it',
    });
  });

  test('a covered element says what covers it', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    const result = await harness.act('click', { target: 'Continue to checkout' });
    expect(result.success).toBe(false);
    expect(result.error).toBe(
      'Cannot click text "Continue to checkout": another element (<div class="overlay" id="cookie-overlay">, part of dialog "We value your privacy") is covering it — close the dialog or overlay first (its buttons: "Accept all", "Reject non-essential")',
    );
  });

  test('refs inside a same-origin iframe (f1e…) work for typing and clicking', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/iframe-same` });
    await harness.look();
    const name = harness.ref('textbox', 'Your name');
    expect(name).toMatch(/^f\d+e\d+$/);
    await harness.ok('type', { target: name, text: 'Grace' });
    await harness.ok('click', { target: harness.ref('button', 'Send') });
    await expect(page.locator('#result')).toHaveText('Received from frame: Grace');
  });

  test('refs inside a cross-origin iframe can be read', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/iframe-cross` });
    await harness.look();
    const heading = harness.ref('heading', /^Ada Lovelace/);
    expect(heading).toMatch(/^f\d+e\d+$/);
    const result = await harness.ok('extract', { field: 'name', target: heading });
    expect(result.effects?.extracted?.value).toContain('Ada Lovelace');
  });

  test('elements in an open shadow root are reachable by ref and by text', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/shadow-dom` });
    await harness.look();
    await harness.ok('type', { target: harness.ref('textbox', 'Email address'), text: 'ada@example.com' });
    await harness.ok('click', { target: 'Subscribe' });
    await expect(page.locator('#result')).toHaveText('Subscribed: ada@example.com');
  });

  test('a ref with no element map is named from its accessibility role and name', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const ref = harness.ref('button', 'Accept all');
    const resolved = await resolveTarget(ref, { page, elements: new Map() });
    expect(resolved.element).toEqual({ role: 'button', name: 'Accept all' });
    // Naming it must not cost the model its refs (an aria snapshot would replace them all).
    await harness.ok('click', { target: ref });
    await expect(page.locator('#cookie-overlay')).toBeHidden();
  });
});

test('a recipe step is told what to do in its own terms: no ref and no page state; the model is told both', async ({ harness }) => {
  await harness.open(
    'recipe-words',
    `<button>Send</button>
     <select aria-label="Size" onchange="this.remove()"><option>S</option><option>M</option></select>`,
  );
  const asRecipe = (name: string, args: Record<string, unknown>) => dispatch({ name, args }, { ...harness.env(), reader: 'recipe' });
  const typed = await asRecipe('type', { target: { role: 'button', name: 'Send' }, text: 'hello' });
  expect(typed.error).toBe('Cannot type into button "Send": it is a button, not a text field — click it, or point the step at a text field');
  const chosen = await asRecipe('select_option', { target: { label: 'Size' }, value: 'M' });
  expect(chosen.error).toMatch(/the select is gone from the page afterwards/);
  for (const failed of [typed, chosen]) expect(failed.error).not.toMatch(/\bref\b|page state/);

  await harness.open('model-words', '<button>Send</button>');
  await harness.look();
  const byModel = await harness.act('type', { target: harness.ref('button', 'Send'), text: 'hello' });
  expect(byModel.error).toContain('it is a button, not a text field — click it, or type into a textbox of the page state');
});
