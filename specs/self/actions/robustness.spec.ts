import { dispatch } from '../../../agent/actions/core/dispatch';
import { actionNames, toolDefinitions } from '../../../agent/actions/registry';
import { expect, test, WIDGETS } from './harness';

test.describe('the dispatcher never throws', () => {
  test('invalid arguments, unknown actions and malformed calls are results', async ({ harness }) => {
    const missing = await harness.act('click', {});
    expect(missing).toMatchObject({ success: false, description: 'Invalid arguments for click' });
    expect(missing.error).toContain('target');
    const wrongType = await harness.act('goto', { url: 42 });
    expect(wrongType.error).toMatch(/Invalid arguments for goto:\n.*expected string/s);
    const unknown = await harness.act('teleport', { to: 'mars' });
    expect(unknown.error).toContain('Unknown action "teleport". Available: goto, go_back');
    const notAnObject = await dispatch({ name: 'click', args: 'e12' as never }, harness.env());
    expect(notAnObject.success).toBe(false);
    const nothing = await dispatch(null as never, harness.env());
    expect(nothing.success).toBe(false);
  });

  test('a crashed renderer gives infrastructure results; goto carries on in a fresh tab', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await harness.look();
    const ref = harness.ref('button', 'Accept all');
    const crashed = page.waitForEvent('crash');
    await page.goto('chrome://crash').catch(() => {});
    await crashed;
    await expect.poll(() => harness.announcements().join('\n')).toContain(`The tab at ${WIDGETS}/modal crashed`);
    const click = await harness.act('click', { target: ref });
    expect(click).toMatchObject({
      success: false,
      infra: true,
      error: 'The page was closed or crashed — switch to another tab or open the start URL again',
    });
    const shot = await harness.act('screenshot', { label: 'after crash' });
    expect(shot).toMatchObject({ success: false, infra: true });
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    expect(harness.tabs.active).not.toBe(page);
    expect(harness.tabs.pages).toHaveLength(1);
    await harness.ok('click', { target: 'Accept all' });
  });

  test('a closed page gives an infrastructure result', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    await page.close();
    const attempts = [
      ['click', { target: 'Accept all' }],
      ['extract', { field: 'x', target: 'css=h1' }],
      ['extract', { field: 'x', target: 'css=h1', missing: 'null' }],
      ['scroll', { direction: 'down' }],
      ['go_back', {}],
    ] as const;
    for (const [name, args] of attempts) {
      const result = await harness.act(name, args);
      expect(result, name).toMatchObject({ success: false, infra: true });
    }
  });

  test('a ref inside a detached frame is a logic failure that asks for a fresh look', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/iframe-same` });
    await harness.look();
    const inFrame = harness.ref('textbox', 'Your name');
    await harness.ok('hover', { target: inFrame });
    await page.evaluate(() => document.querySelector('iframe')!.remove());
    const result = await harness.act('type', { target: inFrame, text: 'Grace' });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toMatch(new RegExp(`^${inFrame} \\(textbox "Your name"\\) is no longer on the page|frame .*detached`));
  });

  test('a frame detached while the action runs is still a result', async ({ harness, page }) => {
    await harness.open(
      'frame-goes',
      `<iframe srcdoc="<button onclick='parent.postMessage(1, &quot;*&quot;)'>Go</button><input aria-label=Late disabled>"></iframe>
      <script>addEventListener('message', () => document.querySelector('iframe').remove())</script>`,
    );
    await harness.look();
    const late = harness.ref('textbox', 'Late');
    await page.evaluate(() => setTimeout(() => document.querySelector('iframe')!.remove(), 300));
    const result = await harness.act('type', { target: late, text: 'x' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/detached|no longer on the page|removed/);
  });

  test('a hung renderer is cut off by the action timeout', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal?fault=crash` });
    const result = await harness.act('click', { target: 'css=h1' }, { timeoutMs: 2_000 });
    expect(result).toMatchObject({ success: false, infra: true, error: 'click timed out after 2s' });
  });

  test('an aborted sample stops the action', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/late-hydration?hydrate_ms=60000` });
    const controller = new AbortController();
    const pending = dispatch({ name: 'wait', args: { text: 'Account overview', seconds: 30 } }, { ...harness.env(), signal: controller.signal });
    setTimeout(() => controller.abort('max_time_seconds reached'), 300);
    const result = await pending;
    expect(result).toMatchObject({ success: false, error: 'wait stopped: max_time_seconds reached' });
  });
});

test.describe('the registry', () => {
  test('every action is a tool whose every field is described', () => {
    expect(actionNames()).toEqual([
      'goto',
      'go_back',
      'refresh',
      'switch_tab',
      'click',
      'hover',
      'drag',
      'type',
      'press',
      'scroll',
      'select_option',
      'check',
      'uncheck',
      'upload',
      'screenshot',
      'download',
      'extract',
      'wait',
      'expand',
      'find',
      'save_progress',
      'done',
      'fail',
    ]);
    const undescribed: string[] = [];
    const visit = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const node = schema as { properties?: Record<string, { description?: string }>; anyOf?: unknown[]; items?: unknown };
      for (const [key, property] of Object.entries(node.properties ?? {})) {
        if (!property.description) undescribed.push(`${where}.${key}`);
        visit(property, `${where}.${key}`);
      }
      node.anyOf?.forEach((branch, i) => visit(branch, `${where}|${i}`));
      visit(node.items, `${where}[]`);
    };
    for (const tool of toolDefinitions()) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      expect(tool.input_schema.type).toBe('object');
      visit(tool.input_schema, tool.name);
    }
    expect(undescribed).toEqual([]);
  });

  test('the model is shown targets as text; the dispatcher still takes recorded locator objects', async ({ harness }) => {
    const click = toolDefinitions(['click'])[0]!;
    expect((click.input_schema.properties as Record<string, unknown>).target).toEqual({
      type: 'string',
      minLength: 1,
      description: 'The element: a ref from the page state (e.g. "e12"), its visible text, or "css=<selector>" as a last resort',
    });
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    const recorded = await harness.ok('click', { target: { role: 'button', name: 'Accept all' } });
    expect(recorded.element).toEqual({ role: 'button', name: 'Accept all' });
  });
});
