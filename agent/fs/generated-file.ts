import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The main of a script that writes a file generated from code (a doc, a JSON schema): with `--check` it only says
 * whether the committed file is current (exit 1 when stale, naming the command that regenerates it).
 */
export function writeGenerated(file: string, rendered: string, regenerate: string, argv: readonly string[] = process.argv): void {
  const name = path.relative(process.cwd(), file);
  if (argv.includes('--check')) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current !== rendered) {
      console.error(`${name} is stale: run \`${regenerate}\` and commit it`);
      process.exitCode = 1;
      return;
    }
    console.log(`${name} is up to date`);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rendered);
  console.log(`wrote ${name}`);
}
