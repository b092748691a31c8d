import type { TaskSpecInput } from '../task/schema';

/**
 * The example `bwa init` leaves in tasks/_example.json: a complete task (a recipe, so it runs with no key) whose
 * notes say what each part is for. Its name starts with "_", so no run loads it until it is copied.
 */
export function exampleSpec(schema: string, reference: string): TaskSpecInput {
  return {
    $schema: schema,
    $comment: [
      'An example task. Files whose name starts with "_" never run: copy this one to tasks/<task_id>.json, set task_id to',
      'that name, list its pages in tasks/inputs/<task_id>.csv, then: npx bwa validate && npx playwright test --grep @<task_id>',
      'Or start a task of your own: npx bwa init <task_id> --url "https://…/{{column}}" --field name:type',
      'start_url: the first page of each sample; {{url}} is the CSV column "url" of the sample’s row',
      'output_schema: the fields collected, each with its type; required_fields: the ones a sample needs to be done',
      'recipe: steps replayed with no model; each extract reads one field from the element its target names',
      '  ({"role": …, "name": …}, {"label": …}, {"text": …} or {"css": …}). Without a recipe, Claude decides each step',
      '  from goal and system_prompt (ANTHROPIC_API_KEY in .env); with both, the recipe runs and Claude repairs a failing step',
      'allowed_domains: every host the task may visit (navigation elsewhere is refused)',
      `Reference: ${reference}`,
    ],
    task_id: 'example',
    start_url: '{{url}}',
    system_prompt: 'You collect facts from web pages for an audit. Read values from the page; never guess.',
    goal: 'Take a screenshot of the page, then extract its main heading and its first paragraph.',
    output_schema: { heading: 'string | null', first_paragraph: 'string | null' },
    input_schema: { url: 'url' },
    required_fields: ['heading'],
    required_artifacts: ['page'],
    allowed_domains: ['example.com'],
    recipe: [
      { action: 'screenshot', label: 'page' },
      { action: 'extract', field: 'heading', target: { role: 'heading', first: true } },
      { action: 'extract', field: 'first_paragraph', target: { css: 'p', first: true } },
    ],
  };
}
