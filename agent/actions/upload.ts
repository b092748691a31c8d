import type { ElementHandle, Locator, Page } from '@playwright/test';
import * as path from 'node:path';
import { z } from 'zod';
import { resolveInputFile } from './fields/input-files';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from './core/limits';
import { resolveTarget, TargetArg } from './targets/target';
import { ActionError, defineAction } from './core/types';
import { setTimeout as sleep } from 'node:timers/promises';

export const upload = defineAction({
  name: 'upload',
  productive: true,
  description: 'Attach files to a file field or the button that opens a file chooser.',
  verifies: "Every file is inside the task's input folder (no .., absolute path or symlink out of it); afterwards the file field holds them.",
  schema: z.object({
    target: TargetArg,
    files: z.array(z.string().min(1)).min(1).max(20).describe("File names in the task's input folder"),
  }),
  async handle({ target, files }, env) {
    const paths = files.map(file => resolveInputFile(env.policy.inputDir, file));
    const resolved = await resolveTarget(target, env);
    const control = resolved.locator.first();
    const names = paths.map(p => path.basename(p));
    const before = await control.evaluate(countMentions, names, { timeout: ELEMENT_TIMEOUT_MS });
    let input: ElementHandle;
    if (await isFileInput(control)) {
      await control.setInputFiles(paths, { timeout: ELEMENT_TIMEOUT_MS });
      input = await control.elementHandle({ timeout: ELEMENT_TIMEOUT_MS }).then(h => h!);
    } else input = await chooseThroughDialog(env.page, control, paths);
    const held = await heldFiles(input, names, before);
    if (!held.ok) {
      throw new ActionError(
        `Attached ${names.join(', ')} to ${resolved.label}, but neither the field nor the page shows ${held.missing.join(', ')} afterwards — the page refused it (a size or type limit?); look for a message near it`,
      );
    }
    return { description: `Attached ${names.join(', ')} to ${resolved.label} — ${held.where}`, element: resolved.element };
  },
});

async function isFileInput(locator: Locator): Promise<boolean> {
  return locator.evaluate(
    el => {
      const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
      return control instanceof HTMLInputElement && control.type === 'file';
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}

/**
 * Whether the files took, read after the page's change handlers ran: the field holds them, or the page took
 * them into a list of its own and cleared the field (its text names each file more often than before).
 */
async function heldFiles(
  input: ElementHandle,
  names: readonly string[],
  before: readonly number[],
): Promise<{ ok: true; where: string } | { ok: false; missing: string[] }> {
  await sleep(HANDLERS_MS);
  try {
    const held = await input.evaluate(el =>
      [...(((el instanceof HTMLLabelElement && el.control ? el.control : el) as HTMLInputElement).files ?? [])].map(file => file.name),
    );
    if (names.every(name => held.includes(name))) return { ok: true, where: `it now holds ${held.join(', ')}` };
    const after = await input.evaluate(countMentions, names);
    const missing = names.filter((name, i) => !held.includes(name) && after[i]! <= before[i]!);
    return missing.length ? { ok: false, missing } : { ok: true, where: 'the page now lists them' };
  } finally {
    await input.dispose();
  }
}

/** Runs in the page: how often its text names each file. */
function countMentions(el: Element, files: readonly string[]): number[] {
  const text = el.ownerDocument.body?.innerText ?? '';
  return files.map(name => text.split(name).length - 1);
}

async function chooseThroughDialog(page: Page, opener: Locator, paths: string[]): Promise<ElementHandle> {
  const chooser = page.waitForEvent('filechooser', { timeout: ELEMENT_TIMEOUT_MS });
  chooser.catch(() => {});
  await opener.click({ timeout: ELEMENT_TIMEOUT_MS });
  const opened = await chooser.catch(() => undefined);
  if (!opened) throw new ActionError('Clicking it did not open a file chooser — target the file field itself (input type=file or its label)');
  await opened.setFiles(paths);
  return opened.element();
}
