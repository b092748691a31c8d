import type { Locator, Page } from '@playwright/test';
import * as path from 'node:path';
import { z } from 'zod';
import { resolveInputFile } from './input-files';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { resolveTarget, TargetArg } from './target';
import { ActionError, defineAction } from './types';

export const upload = defineAction({
  name: 'upload',
  description: 'Attach files to a file field (or the button opening a file chooser).',
  schema: z.object({
    target: TargetArg.describe('File input or its button'),
    files: z.array(z.string().min(1).describe('A file name')).min(1).max(20).describe("Files in the task's input folder"),
  }),
  async handle({ target, files }, env) {
    const paths = files.map(file => resolveInputFile(env.policy.inputDir, file));
    const resolved = await resolveTarget(target, env);
    const control = resolved.locator.first();
    if (await isFileInput(control)) await control.setInputFiles(paths, { timeout: ELEMENT_TIMEOUT_MS });
    else await chooseThroughDialog(env.page, control, paths);
    return { description: `Attached ${paths.map(p => path.basename(p)).join(', ')} to ${resolved.label}`, element: resolved.element };
  },
});

async function isFileInput(locator: Locator): Promise<boolean> {
  return locator.evaluate(el => {
    const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
    return control instanceof HTMLInputElement && control.type === 'file';
  }, undefined, { timeout: ELEMENT_TIMEOUT_MS });
}

async function chooseThroughDialog(page: Page, opener: Locator, paths: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser', { timeout: ELEMENT_TIMEOUT_MS });
  chooser.catch(() => {});
  await opener.click({ timeout: ELEMENT_TIMEOUT_MS });
  const opened = await chooser.catch(() => undefined);
  if (!opened) throw new ActionError('Clicking it did not open a file chooser — target the file field itself (input type=file or its label)');
  await opened.setFiles(paths);
}
