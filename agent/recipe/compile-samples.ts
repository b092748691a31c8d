import { compileRecipe, type CompileInput, type Compiled } from './compile';
import type { SourceRun } from './draft';

export interface CompiledFrom {
  compiled: Compiled;
  source: SourceRun;
  others: SourceRun[];
}

/**
 * Compiles from the preferred source and, when its recipe does not hold on every other sample, tries each other
 * sample as the source in turn, keeping the recipe that reads back the most values over all samples (then the one
 * holding on more samples, then the earlier source). Which sample teaches the general locator is not knowable in
 * advance: a profile with one employer cannot show that the current one is marked `.current`, while a profile with
 * two can. Counting samples alone would prefer a commit pushed without a pull request, whose recipe reads one field
 * and so "holds" everywhere, over one that reads nine and stops where there is no pull request to open.
 */
export async function compileFromSamples(input: CompileInput): Promise<CompiledFrom> {
  const candidates = [input.source, ...(input.others ?? [])];
  let best: CompiledFrom | undefined;
  let firstError: unknown;
  const passedOver: string[] = [];
  for (const source of candidates) {
    const others = candidates.filter(c => c !== source);
    let compiled: Compiled;
    try {
      compiled = await compileRecipe({ ...input, source, others });
    } catch (error) {
      firstError ??= error;
      passedOver.push(`${source.sampleId}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      continue;
    }
    const held = (c: Compiled) => `held on ${c.verifiedOn.length} of ${candidates.length} samples, ${valuesRead(c)} values read back`;
    if (!best || readsMore(compiled, best.compiled)) {
      if (best) passedOver.push(`${best.source.sampleId}: ${held(best.compiled)}`);
      best = { compiled, source, others };
    } else {
      passedOver.push(`${source.sampleId}: ${held(compiled)}`);
    }
    if (best.compiled.verifiedOn.length === candidates.length) break;
  }
  if (!best) throw firstError;
  if (passedOver.length)
    best.compiled.notes.push(`compiled from ${best.source.sampleId}; recipes from other sources were passed over — ${passedOver.join('; ')}`);
  return best;
}

const valuesRead = (compiled: Pick<Compiled, 'verifiedOn'>) => compiled.verifiedOn.reduce((sum, sample) => sum + sample.fields, 0);

/** Whether recipe a reads back more values over the samples checked than b (then: holds on more samples). */
export function readsMore(a: Pick<Compiled, 'verifiedOn'>, b: Pick<Compiled, 'verifiedOn'>): boolean {
  if (valuesRead(a) !== valuesRead(b)) return valuesRead(a) > valuesRead(b);
  return a.verifiedOn.length > b.verifiedOn.length;
}
