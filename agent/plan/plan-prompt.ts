import { createHash } from 'node:crypto';
import type { SystemBlock } from '../decide/prompt';
import type { RequestRoute } from '../decide/request-route';
import { DISCOVERY_THRESHOLD, PLAN_TOOL } from './plan-tool';

/** The task the planner's requests name in their route (RequestRoute): logs and the scripted test model key them by it. */
export const PLANNER_TASK_ID = 'plan';

const RULES = `You turn a plain-English request into a bwa task: a JSON task spec plus its samples. bwa runs the task once per sample in a browser: it opens start_url (with {{column}} placeholders filled from the sample's row), then an agent follows system_prompt and goal, takes the screenshots asked for and extracts the output_schema fields, keeping evidence of each.

Write the task spec:
- task_id: lowercase letters, digits and "_" naming the workflow (e.g. "org_member_profiles").
- start_url: the page a sample starts on. Put per-sample parts in {{column}} placeholders ("https://example.com/users/{{username}}"), or use "{{url}}" when each sample has its own URL. input_schema declares every column used: "string", "url", "number", or "string | null".
- system_prompt: instructions for the browsing agent (its role, what to read and where, "a field the page does not show is null; never guess"). goal: what to collect and when to stop, in one or two sentences.
- output_schema: one key per value to extract, with a type: "string", "string | null", "number", "number | null", "array", "boolean".
- Screenshots: ask for them in the goal with a label ("screenshot the profile, label it profile") and list the labels in required_artifacts. required_fields: the output fields a finished sample must have.
- keywords: words that mark the relevant parts of the pages. allowed_domains: every host the task visits ("example.com", or "127.0.0.1:4101" with its port).
- Leave out "recipe": a model runs new tasks.

Give the samples:
- When the request names its items, or there are at most ${DISCOVERY_THRESHOLD}, set needs_discovery false and list them in samples: one object per item with "sample_id" (letters, digits, ".", "_", "-"; e.g. the username) and one key per input_schema column.
- When it covers more than ${DISCOVERY_THRESHOLD} items that each have their own page and must be found by browsing a listing ("every member of …", "all open tickets"), set needs_discovery true, give no samples, and put a discover block in the task: start_url (the listing page), item (what one item is), record (column → what it holds, for each input_schema column except "url"), id_from ("url" or a column) with an optional id_pattern (a regex with one group), mode ("pagination", "load_more", "infinite_scroll" or "auto") and max_items. The task's start_url is then "{{url}}" with input_schema "url": "url" plus the recorded columns.

If the request leaves out an address you need (the site, the listing page), use the most likely one and say so in notes: the user reviews the plan before it runs.

Call ${PLAN_TOOL} once with the complete plan. If it is refused, fix exactly what the error names and call it again with the whole plan.`;

/** The same for every request, so the prompt cache holds it. */
export function plannerSystem(): SystemBlock[] {
  return [{ type: 'text', text: RULES, cache_control: { type: 'ephemeral' } }];
}

/** The same request always has the same route, so its requests (a refused plan and its correction) are one conversation. */
export function plannerRoute(sentence: string): RequestRoute {
  return { taskId: PLANNER_TASK_ID, sampleId: createHash('sha256').update(sentence.trim()).digest('hex').slice(0, 12) };
}

export function plannerUserMessage(sentence: string): string {
  return `Request:\n${sentence.trim()}`;
}

export function invalidPlanMessage(problems: string): string {
  return `The plan was refused:\n${problems}\nCall ${PLAN_TOOL} again with the whole corrected plan.`;
}
