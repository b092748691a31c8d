import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The folder of the Playwright config this process runs, found as Playwright finds it: `-c`/`--config` (a file or
 * a folder), else the working directory.
 */
export function configDir(argv: readonly string[] = process.argv, cwd = process.cwd()): string {
  const index = argv.findIndex(arg => arg === '-c' || arg === '--config' || arg.startsWith('--config='));
  if (index === -1) return cwd;
  const flag = argv[index]!;
  const value = flag.startsWith('--config=') ? flag.slice('--config='.length) : argv[index + 1];
  if (!value) return cwd;
  return folderOfConfig(path.resolve(cwd, value)) ?? path.dirname(path.resolve(cwd, value));
}

/** The folder a config names, as `-c` takes it (the file's folder, or the folder itself); undefined when neither exists. */
export function folderOfConfig(given: string): string | undefined {
  const stat = fs.statSync(given, { throwIfNoEntry: false });
  if (!stat) return undefined;
  return stat.isDirectory() ? given : path.dirname(given);
}
