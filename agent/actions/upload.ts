import type { ElementHandle, Locator, Page } from '@playwright/test';
import * as path from 'node:path';
import { z } from 'zod';
import { resolveInputFile } from './input-files';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { resolveTarget, TargetArg } from './target';
import { ActionError, defineAction } from './types';

export const upload = defineAction({
  name: 'upload',
  description: 'Attach files to a file field (or the button opening a file chooser).',
  verifies: "Every file is inside the task's input folder (no .., absolute path or symlink out of it); afterwards the file field holds them.",
  schema: z.object({
    target: TargetArg.describe('File input or its button'),
    files: z.array(z.string().min(1).describe('A file name')).min(1).max(20).describe("Files in the task's input folder"),
  }),
  async handle({ target, files }, env) {
    const paths = files.map(file => resolveInputFile(env.policy.inputDir, file));
    const resolved = await resolveTarget(target, env);
    const control = resolved.locator.first();
    let input: ElementHandle;
    if (await isFileInput(control)) {
      await control.setInputFiles(paths, { timeout: ELEMENT_TIMEOUT_MS });
      input = await control.elementHandle({ timeout: ELEMENT_TIMEOUT_MS }).then(h => h!);
    } else input = await chooseThroughDialog(env.page, control, paths);
    const names = paths.map(p => path.basename(p));
    const held = await heldFiles(input);
    if (!names.every(name => held.includes(name))) {
      throw new ActionError(`Attached ${names.join(', ')} to ${resolved.label}, but the field holds ${held.length ? held.join(', ') : 'no file'} afterwards — the page refused it (a size or type limit?); look for a message near it`);
    }
    return { description: `Attached ${names.join(', ')} to ${resolved.label} — it now holds ${held.join(', ')}`, element: resolved.element };
  },
});

async function isFileInput(locator: Locator): Promise<boolean> {
  return locator.evaluate(el => {
    const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
    return control instanceof HTMLInputElement && control.type === 'file';
  }, undefined, { timeout: ELEMENT_TIMEOUT_MS });
}

/** The names of the files a file input holds, read after the page's change handlers ran. */
async function heldFiles(input: ElementHandle): Promise<string[]> {
  await new Promise(resolve => setTimeout(resolve, 50));
  try {
    return await input.evaluate(el => [...((el instanceof HTMLLabelElement && el.control ? el.control : (el as HTMLInputElement)) as HTMLInputElement).files ?? []].map(file => file.name));
  } finally {
    await input.dispose();
  }
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
