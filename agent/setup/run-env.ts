import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { checkEnvironment, env, passOnUnlessSet, type EnvSource } from '../env/read';
import { newRunId, settings } from '../settings';

/**
 * A variable the schema rejects stops the run before any task loads or any sample acts: one line per variable, no
 * stack, exit code 2 (a usage error, as Playwright's own). Called by playwright.config.ts and again by globalSetup,
 * for a config of the user's own that uses bwa's globalSetup.
 */
export function stopOnBadEnvironment(source?: EnvSource, exit: (code: number) => never = code => process.exit(code)): void {
  const errors = checkEnvironment(source);
  if (!errors.length) return;
  for (const error of errors) console.error(`bwa: ${error.code}: ${error.message}`);
  exit(2);
}

/**
 * Called by playwright.config.ts in the main process (workers inherit the environment; in a worker every value
 * is already set): names the run, this invocation, and the files of the run no other run may touch.
 */
export function prepareRunEnvironment(argv: readonly string[] = process.argv): { runId: string; reportsDir: string } {
  const runId = passOnUnlessSet('AGENT_RUN_ID', newRunId);
  passOnUnlessSet('AGENT_INVOCATION_ID', randomUUID);
  const reportsDir = settings.reportsDir;
  // Playwright's blob reporter clears its folder before writing: one file per run and shard, so shards run one
  // after another on one machine (or two runs in one checkout) keep each other's reports.
  if (!env.PLAYWRIGHT_BLOB_OUTPUT_DIR) passOnUnlessSet('PLAYWRIGHT_BLOB_OUTPUT_FILE', () => path.join(reportsDir, 'blob', runId, blobName(argv)));
  return { runId, reportsDir };
}

/** report.zip, or report-2-of-4.zip for `--shard=2/4`. */
export function blobName(argv: readonly string[]): string {
  const index = argv.findIndex(arg => arg === '--shard' || arg.startsWith('--shard='));
  const value = index === -1 ? undefined : argv[index]!.includes('=') ? argv[index]!.split('=')[1] : argv[index + 1];
  const shard = /^(\d+)\/(\d+)$/.exec(value ?? '');
  return shard ? `report-${shard[1]}-of-${shard[2]}.zip` : 'report.zip';
}
