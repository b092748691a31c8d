import type { BrowserContext, Page } from '@playwright/test';
import { ModelClient } from '../decide/model-client';
import { ModelDecider } from '../decide/model-decider';
import { modelSettings } from '../decide/model-settings';
import type { Result } from '../evidence/result-schema';
import { SampleSession } from '../session';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import type { DiscoverBlock } from '../task/schema';
import { DiscoveryDecider } from './discovery-decider';
import { DISCOVERY_SAMPLE_ID, discoverySpec } from './discovery-spec';
import { ItemCollector } from './items';
import { ItemSaves, type PageLog } from './item-saves';
import { ListingWalker } from './listing-walker';

export type DiscoveryDeciderKind = 'model' | 'recipe';

export interface DiscoverySessionInput {
  task: LoadedTask;
  block: DiscoverBlock;
  decider: DiscoveryDeciderKind;
  context: BrowserContext;
  page: Page;
  runId: string;
  /** The discovery's evidence folder (action log, checkpoint, result.json). */
  dir: string;
  maxItems: number;
}

export interface DiscoverySessionOutcome {
  result: Result;
  collector: ItemCollector;
  pages: PageLog[];
  stopReason: string;
  mode?: string;
}

/**
 * Runs discovery as one agent session (the loop, actions, guards, evidence and action log every sample
 * gets), with a decider that reports items through save_progress: the model, or the listing walker.
 */
export async function runDiscoverySession(input: DiscoverySessionInput): Promise<DiscoverySessionOutcome> {
  const { task, block, context, page } = input;
  const spec = discoverySpec(task.spec, block, input.maxItems);
  const sample: Sample = {
    sample_id: DISCOVERY_SAMPLE_ID,
    row: { sample_id: DISCOVERY_SAMPLE_ID },
    line: 0,
    source: `discover block of ${task.file}`,
  };
  const collector = new ItemCollector(task.spec, input.maxItems);
  const saves = new ItemSaves(collector);
  const attributes = ItemCollector.attributesFor(task.spec);
  const pageFor = (url: string) => context.pages().find(p => !p.isClosed() && p.url() === url) ?? page;
  let walker: ListingWalker | undefined;
  let wrapper: DiscoveryDecider | undefined;
  const session = await SampleSession.prepare({
    task: { spec, file: task.file, hash: task.hash, recipeHash: task.recipeHash },
    sample,
    context,
    page,
    runId: input.runId,
    attempt: 0,
    deciderMode: input.decider,
    dir: input.dir,
    deciders: {
      model: () => {
        const client = new ModelClient(modelSettings());
        wrapper = new DiscoveryDecider(new ModelDecider(spec, sample, client, { attempt: 0 }), saves, pageFor, attributes, block.max_pages);
        return wrapper;
      },
      recipe: () => {
        if (!block.item_link) throw new Error('item_link is required without a model');
        walker = new ListingWalker({ ...block, item_link: block.item_link }, saves, () => page, attributes);
        return walker;
      },
    },
  });
  const result = await session.run();
  const stopReason = walker?.stopReason || wrapper?.stopReason || result.error || '';
  return { result, collector, pages: saves.pages, stopReason, mode: walker?.mode };
}
