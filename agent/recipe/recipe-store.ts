import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeJsonAtomic } from '../fs/atomic';
import { withFileLock } from '../fs/file-lock';
import type { LoadedTask } from '../task/load-task';
import type { RecipeStep } from '../task/schema';
import { RECIPE_FORMAT, RecipeEntry } from './entry';

export type Lookup = { hit: true; entry: RecipeEntry; location: string } | { hit: false; reason: string; location: string };

export interface RecipeStore {
  /** Where the entry for this task lives (a file path, or a memory key). */
  location(task: LoadedTask): string;
  lookup(task: LoadedTask): Lookup;
  /** Writes under a lock: `update` gets the current entry (fresh or not) and returns the one to store, or undefined to keep it. */
  update(task: LoadedTask, update: (current: RecipeEntry | undefined) => RecipeEntry | undefined): Promise<RecipeEntry | undefined>;
}

const LOCK_TIMEOUT_MS = 15_000;

/** Compiled recipes live beside the task spec: `<tasks dir>/recipes/<task_id>.json`. */
export function recipeFileFor(task: LoadedTask): string {
  return path.join(path.dirname(task.file), 'recipes', `${task.spec.task_id}.json`);
}

/** Anything that is not a current, readable entry for this exact task spec is a miss, never an error. */
export function checkEntry(raw: unknown, task: LoadedTask): { entry: RecipeEntry } | { reason: string } {
  if (raw && typeof raw === 'object' && 'format' in raw && (raw as { format: unknown }).format !== RECIPE_FORMAT)
    return { reason: `stored in format ${String((raw as { format: unknown }).format)}, this bwa reads format ${RECIPE_FORMAT}` };
  const parsed = RecipeEntry.safeParse(raw);
  if (!parsed.success) return { reason: `not a recipe entry (${parsed.error.issues[0]?.message ?? 'invalid'})` };
  if (parsed.data.task_id !== task.spec.task_id) return { reason: `recorded for task ${parsed.data.task_id}` };
  if (parsed.data.task_hash !== task.hash) return { reason: 'stale: the task spec changed since it was compiled' };
  if (parsed.data.spec_recipe_hash !== undefined && parsed.data.spec_recipe_hash !== task.recipeHash)
    return { reason: "stale: the task spec's own recipe changed since it was compiled" };
  return { entry: parsed.data };
}

export const fileRecipeStore: RecipeStore = {
  location: recipeFileFor,
  lookup(task) {
    const location = recipeFileFor(task);
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(location, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { hit: false, location, reason: code === 'ENOENT' ? 'no recipe compiled yet' : `unreadable (${(error as Error).message})` };
    }
    const checked = checkEntry(raw, task);
    return 'entry' in checked ? { hit: true, entry: checked.entry, location } : { hit: false, reason: checked.reason, location };
  },
  async update(task, update) {
    const location = recipeFileFor(task);
    fs.mkdirSync(path.dirname(location), { recursive: true });
    return withFileLock(`${location}.lock`, LOCK_TIMEOUT_MS, () => {
      const current = this.lookup(task);
      const next = update(current.hit ? current.entry : undefined);
      if (next) writeJsonAtomic(location, RecipeEntry.parse(next));
      return next;
    });
  },
};

/** For tests and benchmarks that must not touch the tasks folder. */
export function memoryRecipeStore(): RecipeStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return {
    entries,
    location: task => `memory:${task.spec.task_id}`,
    lookup(task) {
      const location = this.location(task);
      if (!entries.has(location)) return { hit: false, location, reason: 'no recipe compiled yet' };
      const checked = checkEntry(entries.get(location), task);
      return 'entry' in checked ? { hit: true, entry: checked.entry, location } : { hit: false, reason: checked.reason, location };
    },
    async update(task, update) {
      const current = this.lookup(task);
      const next = update(current.hit ? current.entry : undefined);
      if (next) entries.set(this.location(task), structuredClone(RecipeEntry.parse(next)));
      return next;
    },
  };
}

let active: RecipeStore = fileRecipeStore;

/** The store sessions read and write; tests swap in a memory store. */
export function recipeStore(): RecipeStore {
  return active;
}

export function useRecipeStore(store: RecipeStore): () => void {
  const previous = active;
  active = store;
  return () => {
    active = previous;
  };
}

/** The steps sessions replay for this task when a fresh compiled recipe is stored; a miss is simply undefined. */
export function compiledRecipe(task: LoadedTask): { steps: RecipeStep[]; revision: number } | undefined {
  const found = recipeStore().lookup(task);
  return found.hit ? { steps: found.entry.steps, revision: found.entry.revision } : undefined;
}
