import type { ScriptInput } from '../../fixtures/model-server';
import type { PromptView, ScriptStepInput } from '../../fixtures/model-server/script-schema';

export const ARTICLE_TASK = 'article_reader';

/**
 * A reading task on a saved real article page (the pages nobody here wrote): the kind of page where, before the
 * vision gate, a screenshot question followed nearly every action.
 */
export function articleTaskSpec(origin: string): Record<string, unknown> {
  return {
    task_id: ARTICLE_TASK,
    start_url: '{{url}}',
    system_prompt: 'You are a browser agent reading news and blog articles for an archive.',
    goal: 'Take a screenshot of the article, then read its headline and the first sentence of its text.',
    output_schema: { headline: 'string', first_sentence: 'string' },
    required_fields: ['headline'],
    required_artifacts: ['article'],
    allowed_domains: [new URL(origin).host],
    max_steps: 10,
    max_time_seconds: 120,
  };
}

const isHeading = (role: string | undefined) => role === 'heading';

/** The headline as the page state shows it: the level-1 heading, else the first heading. */
function headline(view: PromptView): ScriptStepInput {
  const headings = view.page.filter(line => isHeading(line.role) && line.ref);
  const chosen = headings.find(line => /\(level 1\)/.test(line.rest)) ?? headings[0];
  if (!chosen) return { tool: 'done', args: { extracted: {}, note: 'no heading in the page state' } };
  return { tool: 'extract', target: { ref: chosen.ref! }, args: { field: 'headline' } };
}

/** The first line of prose after the headline: a text line long enough to be a sentence of the article. */
function firstSentence(view: PromptView): ScriptStepInput {
  const start = view.page.findIndex(line => isHeading(line.role) && /\(level 1\)/.test(line.rest));
  const prose = view.page
    .slice(Math.max(0, start))
    .find(line => line.ref && (line.role === 'text' || line.role === 'paragraph') && (line.name?.length ?? 0) >= 60);
  if (!prose) return { tool: 'done', args: { extracted: {}, note: 'no prose after the headline in the page state' } };
  return { tool: 'extract', target: { ref: prose.ref! }, args: { field: 'first_sentence', pattern: '^(.+?[.!?])(?:\\s|$)' } };
}

/** Screenshot, headline and first sentence in one turn when the page state shows both; else one read at a time. */
function readArticle(view: PromptView): ScriptStepInput | ScriptStepInput[] {
  const screenshot: ScriptStepInput = {
    tool: 'screenshot',
    args: { label: 'article' },
    reflection: { next_goal: 'record the article as shown, then read it' },
  };
  const reads = [headline(view), firstSentence(view)];
  if (reads.every(read => 'tool' in read && read.tool === 'extract')) return { batch: [screenshot, ...reads] } as ScriptStepInput;
  return [
    screenshot,
    { what: 'read the headline the page state shows', decide: headline },
    { what: 'read the first sentence of the prose after the headline', decide: firstSentence },
  ];
}

export function articleScript(): ScriptInput {
  return {
    description: 'article_reader: screenshot, headline, first sentence',
    steps: [
      { what: 'screenshot the article, read its headline and first sentence', decide: readArticle },
      { tool: 'done', args: { extracted: {} } },
    ],
    on_unmatched: 'canned',
  } as ScriptInput;
}
