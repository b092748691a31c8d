// @ts-check
'use strict';
/**
 * The JavaScript build of agent/ that the `bwa` command runs: each TypeScript file transpiled on its own (as tsx
 * does in development, without type checking — `npm run typecheck` does that) into dist/agent/, by `npm ci` (the
 * `prepare` script) or `npm run build`. Plain JavaScript, so that running it needs nothing compiled.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SOURCES = path.join(ROOT, 'agent');
const BUILD = path.join(ROOT, 'dist');
/** The command-line entry point inside the build. */
const BUILT_CLI = path.join(BUILD, 'agent', 'cli.js');
/** Its modification time is when the build started: a source changed since is newer. */
const STAMP = path.join(BUILD, 'built-at');

/**
 * Every .ts file under a folder (declarations aside).
 * @returns {string[]}
 */
function sourceFiles(dir = SOURCES) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/**
 * No source was added or edited since the build started. Checked on every `bwa` start (a stat of each source, a
 * few milliseconds), so a checkout that moved on without a rebuild runs its sources, never stale code.
 */
function buildIsFresh() {
  try {
    const builtAt = fs.statSync(STAMP).mtimeMs;
    return sourceFiles().every(source => fs.statSync(source).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

/**
 * Transpiles agent/ into a fresh dist/ (written beside it, then swapped in, so a running `bwa` never sees half a build);
 * with `declarations`, also the .d.ts files of the package's exports (tsconfig.build.json: what `npm pack` ships).
 */
function build({ declarations = false } = {}) {
  const esbuild = require('esbuild');
  const started = new Date();
  const staging = `${BUILD}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  esbuild.buildSync({
    entryPoints: sourceFiles(),
    outbase: ROOT,
    outdir: staging,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  if (declarations) emitDeclarations(staging);
  const stamp = path.join(staging, path.basename(STAMP));
  fs.writeFileSync(stamp, `${started.toISOString()}\n`);
  fs.utimesSync(stamp, started, started);
  fs.rmSync(BUILD, { recursive: true, force: true });
  fs.renameSync(staging, BUILD);
}

/**
 * TypeScript's declaration output for the exports and what they reach; a type error stops the build.
 * @param {string} outDir
 */
function emitDeclarations(outDir) {
  // The package exports no path to its command: beside its package.json, as its `bin` entry names it.
  const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const run = require('node:child_process').spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', outDir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`bwa: the declarations did not build:\n${run.stdout}${run.stderr}`);
}

module.exports = { BUILT_CLI, BUILD, buildIsFresh, build };

if (require.main === module) {
  const started = Date.now();
  build({ declarations: process.argv.includes('--declarations') });
  // On stderr: `npm pack --json` prints its JSON on stdout after the prepack script's output.
  console.error(
    `bwa: built ${sourceFiles().length} files of agent/ into ${path.relative(process.cwd(), BUILD) || BUILD}/ in ${Date.now() - started} ms`,
  );
}
