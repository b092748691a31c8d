import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../fs/atomic';
import { withFileLock } from '../fs/file-lock';
import { noMasking, type SecretMasker } from '../secrets/masker';

export const Pattern = z.object({
  task_id: z.string(),
  host: z.string(),
  tip: z.string(),
  keywords: z.array(z.string()),
  from_sample: z.string(),
  at: z.string(),
});
export const Warning = z.object({
  task_id: z.string(),
  host: z.string(),
  warning: z.string(),
  keywords: z.array(z.string()),
  from_sample: z.string(),
  at: z.string(),
});
export type Pattern = z.infer<typeof Pattern>;
export type Warning = z.infer<typeof Warning>;

/** What a tip's record holds besides its words: bwa's ids and times, never page data. */
const MEMORY_IDENTIFIERS = ['*.task_id', '*.host', '*.from_sample', '*.at'];
const PATTERNS_FILE = 'patterns.json';
const FAILURES_FILE = 'failures.json';
const MAX_ENTRIES = 200;
const HINTS_SHOWN = 5;
const LOCK_TIMEOUT_MS = 10_000;

/**
 * Run-scoped memory under reports/runs/<id>/memory/: patterns from done samples and warnings from failed or
 * partial ones, shared by every worker of the run (read-modify-write under a file lock, written atomically),
 * never across runs — a stale pattern from another task cannot steer this one. Tips are page-derived: their texts
 * are masked before they are written.
 */
export class RunMemory {
  constructor(
    readonly dir: string,
    private readonly masker: SecretMasker = noMasking,
  ) {}

  async addPatterns(patterns: Pattern[]): Promise<void> {
    await this.append(PATTERNS_FILE, Pattern, patterns);
  }

  async addWarnings(warnings: Warning[]): Promise<void> {
    await this.append(FAILURES_FILE, Warning, warnings);
  }

  patterns(): Pattern[] {
    return this.read(PATTERNS_FILE, Pattern);
  }

  warnings(): Warning[] {
    return this.read(FAILURES_FILE, Warning);
  }

  /** This task's tips, each with the number of samples it held on (the same tip learned again counts once more). */
  tips(taskId: string): Array<{ tip: string; samples: number; keywords: string[] }> {
    return counted(
      this.patterns().filter(p => p.task_id === taskId),
      p => p.tip,
    ).map(g => ({ tip: g.first.tip, samples: g.samples, keywords: g.first.keywords }));
  }

  /**
   * Tips for a sample of this task, the ones that held on the most samples first (then best keyword overlap
   * with the goal), each marked with that count; warnings are marked as such.
   */
  hints(taskId: string, goal: string): string[] {
    const words = new Set(tokenize(goal));
    const score = (keywords: string[]) => keywords.filter(k => words.has(k)).length;
    const samples = (n: number) => `${n} sample${n === 1 ? '' : 's'}`;
    const tips = this.tips(taskId).map(t => ({ text: `${t.tip} (held on ${samples(t.samples)})`, samples: t.samples, score: score(t.keywords) }));
    const warnings = counted(
      this.warnings().filter(w => w.task_id === taskId),
      w => `${w.host}\u0000${w.warning}`,
    ).map(w => ({
      text: `Warning (${w.first.host}): ${w.first.warning} (seen on ${samples(w.samples)})`,
      samples: w.samples,
      score: score(w.first.keywords) + 0.5,
    }));
    return [...tips, ...warnings]
      .sort((a, b) => b.samples - a.samples || b.score - a.score)
      .slice(0, HINTS_SHOWN)
      .map(h => h.text);
  }

  private read<T>(file: string, schema: z.ZodType<T>): T[] {
    try {
      const parsed = z.array(schema).safeParse(JSON.parse(fs.readFileSync(path.join(this.dir, file), 'utf8')));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  }

  private async append<T>(file: string, schema: z.ZodType<T>, entries: T[]): Promise<void> {
    if (entries.length === 0) return;
    fs.mkdirSync(this.dir, { recursive: true });
    await withFileLock(path.join(this.dir, `${file}.lock`), LOCK_TIMEOUT_MS, () => {
      const current = this.read(file, schema);
      writeJsonAtomic(path.join(this.dir, file), this.masker.value([...current, ...entries].slice(-MAX_ENTRIES), MEMORY_IDENTIFIERS));
    });
  }
}

/** Entries grouped by a key, with how many distinct samples gave each (first entry's fields kept). */
function counted<T extends { from_sample: string }>(entries: readonly T[], key: (entry: T) => string): Array<{ first: T; samples: number }> {
  const groups = new Map<string, { first: T; samples: Set<string> }>();
  for (const entry of entries) {
    const group = groups.get(key(entry)) ?? { first: entry, samples: new Set<string>() };
    group.samples.add(entry.from_sample);
    groups.set(key(entry), group);
  }
  return [...groups.values()].map(g => ({ first: g.first, samples: g.samples.size }));
}

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
}
