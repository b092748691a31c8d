import { compileRecipe, type CompileInput, type Compiled } from './compile';
import type { SourceRun } from './draft';

export interface CompiledFrom {
  compiled: Compiled;
  source: SourceRun;
  others: SourceRun[];
}

/**
 * Compiles from the preferred source and, when its recipe does not hold on every other sample, tries each other
 * sample as the source in turn, keeping the recipe that holds on the most samples (the earlier source on a tie).
 * Which sample teaches the general locator is not knowable in advance: a profile with one employer cannot show
 * that the current one is marked `.current`, while a profile with two can.
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
    if (!best || compiled.verifiedOn.length > best.compiled.verifiedOn.length) {
      if (best) passedOver.push(`${best.source.sampleId}: held on ${best.compiled.verifiedOn.length} of ${candidates.length} samples`);
      best = { compiled, source, others };
    } else {
      passedOver.push(`${source.sampleId}: held on ${compiled.verifiedOn.length} of ${candidates.length} samples`);
    }
    if (best.compiled.verifiedOn.length === candidates.length) break;
  }
  if (!best) throw firstError;
  if (passedOver.length)
    best.compiled.notes.push(`compiled from ${best.source.sampleId}; recipes from other sources were passed over — ${passedOver.join('; ')}`);
  return best;
}
