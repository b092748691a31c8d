import * as fs from 'node:fs';
import * as path from 'node:path';
import { verifyRun } from '../report/verify-run';
import { defineCommand } from './command';
import { listed } from './listing';
import { RUN_ID_PATTERN } from '../env/variables';
import { runDir, settings } from '../settings';

export const verifyCommand = defineCommand({
  ...listed('verify'),
  about:
    'The run is a run id (under AGENT_REPORTS_DIR/runs), or the path of a run folder or of its manifest.json. The manifest holds the hash of every other file of the run; its own hash is printed at the end of the run and here: keep it outside the run and give it with --manifest-sha256 to prove the manifest unchanged too.',
  options: {
    'manifest-sha256': { type: 'string', placeholder: 'hex', help: "the manifest's SHA-256 as the run printed it: a different one fails" },
  },
  positionals: [{ name: 'run' }],
  async run({ args: { run: target }, options }) {
    const dir = resolveRun(target);
    if (!dir) {
      console.error(
        `bwa verify: no run "${target}" (looked for ${target} and ${path.join(settings.reportsDir, 'runs', target)}): run bwa beside the Playwright config whose run it was, name it with -c <config>, or give the run's folder`,
      );
      return 1;
    }
    const report = verifyRun(dir, { manifestSha256: options['manifest-sha256'] });
    const where = path.relative(process.cwd(), dir) || dir;
    for (const warning of report.warnings) console.log(`  ! ${warning}`);
    if (report.manifestSha256) console.log(`  manifest.json sha256 ${report.manifestSha256}`);
    if (report.problems.length) {
      for (const problem of report.problems) console.error(`  ✗ ${problem}`);
      console.error(
        `bwa verify: run ${report.runId} FAILED — ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} in ${where}/ (${report.samples} sample${report.samples === 1 ? '' : 's'}, ${report.artifacts} artifacts checked)`,
      );
      return 1;
    }
    const warned = report.warnings.length
      ? `, ${report.warnings.length} unlisted file${report.warnings.length === 1 ? '' : 's'} (warnings above)`
      : '';
    console.log(
      `bwa verify: run ${report.runId} OK — ${report.samples} sample${report.samples === 1 ? '' : 's'}, ${report.artifacts} artifacts and ${report.otherFiles} other files re-hashed, all match manifest.json and result.json${warned}`,
    );
    return 0;
  },
});

/** A run id (under AGENT_REPORTS_DIR/runs) or a path to the run folder or its manifest.json. */
function resolveRun(target: string): string | undefined {
  const asPath = path.resolve(target);
  if (fs.existsSync(asPath)) return fs.statSync(asPath).isDirectory() ? asPath : path.dirname(asPath);
  if (!RUN_ID_PATTERN.test(target)) return undefined;
  const dir = runDir(target);
  return fs.existsSync(dir) ? dir : undefined;
}
