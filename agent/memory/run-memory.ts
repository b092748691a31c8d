import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../evidence/atomic';
import { withFileLock } from './file-lock';

export const Pattern = z.object({ task_id: z.string(), host: z.string(), tip: z.string(), keywords: z.array(z.string()), from_sample: z.string(), at: z.string() });
export const Warning = z.object({ task_id: z.string(), host: z.string(), warning: z.string(), keywords: z.array(z.string()), from_sample: z.string(), at: z.string() });
export type Pattern = z.infer<typeof Pattern>;
export type Warning = z.infer<typeof Warning>;

const PATTERNS_FILE = 'patterns.json';
const FAILURES_FILE = 'failures.json';
const MAX_ENTRIES = 200;
const HINTS_SHOWN = 5;
const LOCK_TIMEOUT_MS = 10_000;

/**
 * Run-scoped memory under reports/runs/<id>/memory/: patterns from done samples and warnings from failed or
 * partial ones, shared by every worker of the run (read-modify-write under a file lock, written atomically),
 * never across runs — a stale pattern from another task cannot steer this one.
 */
export class RunMemory {
  constructor(readonly dir: string) {}

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

  /** Tips for a sample of this task, best keyword overlap with the goal first; warnings are marked as such. */
  hints(taskId: string, goal: string): string[] {
    const words = new Set(tokenize(goal));
    const score = (keywords: string[]) => keywords.filter(k => words.has(k)).length;
    const tips = this.patterns()
      .filter(p => p.task_id === taskId)
      .map(p => ({ text: p.tip, score: score(p.keywords) }));
    const warnings = this.warnings()
      .filter(w => w.task_id === taskId)
      .map(w => ({ text: `Warning (${w.host}): ${w.warning}`, score: score(w.keywords) + 0.5 }));
    const seen = new Set<string>();
    return [...tips, ...warnings]
      .sort((a, b) => b.score - a.score)
      .filter(h => !seen.has(h.text) && seen.add(h.text))
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
      writeJsonAtomic(path.join(this.dir, file), [...current, ...entries].slice(-MAX_ENTRIES));
    });
  }
}

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
}
