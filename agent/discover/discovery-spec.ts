import type { DiscoverBlock, TaskSpec } from '../task/schema';

/** The pseudo-sample a model-driven discovery runs as: its evidence folder, and the sample its model requests are routed by. */
export const DISCOVERY_SAMPLE_ID = '_discovery';
/** The save_progress key the model lists items under. */
export const ITEMS_KEY = 'items';

const STEPS_PER_PAGE = 3;
const SECONDS_PER_PAGE = 60;

const MODE_HINTS: Record<DiscoverBlock['mode'], string> = {
  pagination: 'The listing is split into numbered pages: follow the "next page" link (or the next page number).',
  load_more: 'The listing grows when you click its "load more" button.',
  infinite_scroll: 'The listing loads more items when you scroll to its end.',
  auto: 'Find out how the listing shows more items: a "next page" link, a "load more" button, or loading more when you scroll to the end.',
};

/**
 * The discovery phase as a task of its own: the same loop, actions and prompt machinery as any sample,
 * with instructions for paging through a listing and reporting items with save_progress.
 */
export function discoverySpec(task: TaskSpec, block: DiscoverBlock, maxItems: number): TaskSpec {
  const pages = block.max_pages;
  return {
    ...task,
    phase: 'discovery',
    description: `Discovery for ${task.task_id}: ${block.item}`,
    start_url: block.start_url,
    system_prompt: discoverySystemPrompt(block, maxItems),
    goal: `Save every item (${block.item}) of the listing with save_progress, page by page, until there are no more or ${maxItems} are saved; then call done.`,
    keywords: [...new Set([...task.keywords, 'next', 'more', 'page', 'load'])],
    output_schema: { [ITEMS_KEY]: 'array' },
    input_schema: {},
    max_steps: Math.min(500, pages * STEPS_PER_PAGE + 5),
    max_time_seconds: Math.min(6 * 3600, 120 + pages * SECONDS_PER_PAGE),
    expected_items: null,
    required_fields: [],
    required_artifacts: [],
    judgment_required: false,
    judgment_question: null,
    judgment_output_schema: null,
    pagination: true,
    stop_condition: 'the listing shows no more new items',
    recipe: undefined,
    discover: undefined,
  };
}

export function discoverySystemPrompt(block: DiscoverBlock, maxItems: number): string {
  const columns = Object.entries(block.record);
  const record = columns.length
    ? `\nFor each item also give:\n${columns.map(([column, what]) => `  - "${column}": ${what}`).join('\n')}\n(null when the listing does not show it).`
    : '';
  return `You are discovering the items of a listing on a web site, so that each item can later be processed on its own.
An item is: ${block.item}.
The listing starts at ${block.start_url}. ${MODE_HINTS[block.mode]}

How to work:
- On each page, or after each batch of newly loaded items, call save_progress once with the items you can see that you have not saved yet:
  save_progress({"data": {"${ITEMS_KEY}": [{"url": "<the item link's target exactly as shown after → in the page state>"}, …]}, "note": "page N"})
  Instead of "url" you may give "link": the ref of the item's link (e.g. "e44").${record}
- Only items: skip navigation, tabs, filters, sorting, pagination links and links to other kinds of pages.
- Then get more items: follow the next-page link, click the load-more button, or scroll down to the end of the list.
- When the listing has no more items (no next page, the load-more control is gone, scrolling loads nothing new), call done with {"extracted": {}}.
- Every item must be a link you saw on the page; never invent or guess items. Stop after ${maxItems} items.`;
}
