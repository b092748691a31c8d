import type { FullConfig } from '@playwright/test';
import * as path from 'node:path';
import { projectDir } from '../env/read';

/** bwa's reporter as a config names it: the path withBwa puts in (.ts in the checkout, .js installed), or the export. */
const BWA_REPORTER = /(^bwa\/reporter$)|([\\/]report[\\/]reporter\.[cm]?[jt]s$)/;
/** bwa's masking reporter, as withBwa lists it first or a command line names it. */
const MASK_REPORTER = /(^bwa\/mask-reporter$)|([\\/]report[\\/]mask-reporter\.[cm]?[jt]s$)/;

/** How a command line names bwa's reporters. */
export interface ReporterNames {
  bwa: string;
  mask: string;
}

/**
 * bwa's reporters as a command line can name them: the package's exports once installed; in bwa's own checkout,
 * their files, relative to the config's folder as Playwright resolves them (the exports name the build, which a
 * fresh checkout has not made).
 */
export function reporterNames(configDir = projectDir()): ReporterNames {
  if (__dirname.split(path.sep).includes('node_modules')) return { bwa: 'bwa/reporter', mask: 'bwa/mask-reporter' };
  const file = (name: string) => {
    const relative = path
      .relative(configDir, path.join(__dirname, '..', 'report', `${name}${path.extname(__filename)}`))
      .split(path.sep)
      .join('/');
    return relative.startsWith('..') ? relative : `./${relative}`;
  };
  return { bwa: file('reporter'), mask: file('mask-reporter') };
}

/**
 * What is lost when a command line's `--reporter` took the place of the config's reporters (bwa's among them) in a
 * run that has samples: the manifest, combined.csv, the evidence index and the masking of test attachments. A blob
 * report keeps everything for merge-reports; any other is said once, before a sample runs, with the fix.
 */
export function reporterWarning(reporters: FullConfig['reporter'], runsSamples: boolean, named = reporterNames()): string | undefined {
  if (!runsSamples || reporters.some(([name]) => BWA_REPORTER.test(name))) return undefined;
  const names = reporters.map(([name]) => name);
  if (names.includes('blob'))
    return "bwa: this run writes blob reports only: its evidence (manifest.json, combined.csv, index.html) is written when `npx playwright merge-reports` runs with bwa's reporter (docs/ci.md)";
  return `bwa: ⚠ the reporters of this run (${names.join(', ')}) leave out bwa's: no manifest.json, combined.csv or index.html will be written, and bwa verify will fail — add it to a --reporter list, e.g. --reporter=${[...names, named.bwa].join(',')}`;
}

/**
 * Why a run whose samples may type a secret may not start: its first reporter neither masks the secrets nor is
 * bwa's own (which masks too), so a reporter would print or copy traces, errors and step titles before bwa masks
 * them. withBwa puts the masking first; a command line's `--reporter` takes the place of that list.
 */
export function unmaskedReporting(reporters: FullConfig['reporter'], typesSecrets: boolean, named = reporterNames()): string | undefined {
  const first = reporters[0]?.[0];
  if (!typesSecrets || (first !== undefined && (MASK_REPORTER.test(first) || BWA_REPORTER.test(first)))) return undefined;
  const names = reporters.map(([name]) => name);
  const fixed = [named.mask, ...names.filter(name => !MASK_REPORTER.test(name))];
  if (!fixed.some(name => BWA_REPORTER.test(name)) && !names.includes('blob')) fixed.push(named.bwa);
  return `bwa: the reporters of this run (${names.join(', ') || 'none'}) would read each sample before bwa masks the secrets it types (in traces, errors, step titles and output): put bwa's masking reporter first — --reporter=${fixed.join(',')} — or leave out --reporter to keep your config's list, where withBwa puts it first`;
}
