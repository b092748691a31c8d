import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../core/types';

/**
 * Uploads may only come from the task's input folder. The path is checked twice: as written (no `..`
 * or absolute path out of the folder) and after resolving symlinks (no link pointing out of it).
 */
export function resolveInputFile(inputDir: string, file: string): string {
  const root = realFolder(inputDir);
  const written = path.resolve(root, file);
  if (!isInside(root, written))
    throw new ActionError(`Refused: ${JSON.stringify(file)} is outside the task's input folder — upload only files listed there: ${listFiles(root)}`);
  let real: string;
  try {
    real = fs.realpathSync(written);
  } catch {
    throw new ActionError(`There is no file ${JSON.stringify(file)} in the task's input folder; it has: ${listFiles(root)}`);
  }
  if (!isInside(root, real)) throw new ActionError(`Refused: ${JSON.stringify(file)} links to a file outside the task's input folder`);
  if (!fs.statSync(real).isFile()) throw new ActionError(`${JSON.stringify(file)} is not a file; the input folder has: ${listFiles(root)}`);
  return real;
}

/** Whether the task has any file to upload: without one, the upload action can only fail. */
export function hasInputFiles(inputDir: string): boolean {
  try {
    return fs.readdirSync(inputDir, { withFileTypes: true }).some(entry => !entry.name.startsWith('.') && !entry.isDirectory());
  } catch {
    return false;
  }
}

function realFolder(inputDir: string): string {
  try {
    return fs.realpathSync(inputDir);
  } catch {
    throw new ActionError(`This task has no input folder (${path.basename(inputDir)}), so there is nothing to upload`);
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function listFiles(root: string): string {
  const names = fs
    .readdirSync(root)
    .filter(name => !name.startsWith('.'))
    .slice(0, 20);
  return names.length ? names.map(name => JSON.stringify(name)).join(', ') : '(nothing)';
}
