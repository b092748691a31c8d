import type { ScriptInput } from '../../fixtures/model-server';
import type { PromptView, ScriptStepInput } from '../../fixtures/model-server/script-schema';
import { pageShows } from '../../fixtures/model-scripts/prompt-reading';

const WIDGETS = 'http://127.0.0.1:4102';

/**
 * The widget lab's interactive cases as small tasks, each with what a careful model does on it: steps name their
 * targets the way the page state shows them (the scripted server resolves them there), vision rules answer what
 * a screenshot shows on the two pixel-only pages. Independent calls on one page state share a turn (a batch, ending
 * with the click that changes the page), as Claude does when parallel tool calls are allowed; an agent that forbids
 * them gets the same calls one per turn. One sample per case.
 */
export interface WidgetCaseTask {
  slug: string;
  spec: Record<string, unknown>;
  script: ScriptInput;
  /** Files the task's input folder must hold (upload). */
  inputs?: Record<string, string>;
}

function task(slug: string, goal: string, output: Record<string, string>, script: ScriptInput, extra: Record<string, unknown> = {}): WidgetCaseTask {
  return {
    slug,
    spec: {
      task_id: `widget_${slug.replace(/-/g, '_')}`,
      start_url: `${WIDGETS}/${slug}`,
      system_prompt:
        'You are a browser agent working through one page of a widget test lab. Do what the goal says and read back the result the page shows.',
      goal,
      output_schema: output,
      required_fields: Object.keys(output),
      allowed_domains: ['127.0.0.1:4102'],
      max_steps: 20,
      max_time_seconds: 120,
      ...extra,
    },
    script: { on_exhausted: 'error', ...script },
  };
}

const readBack = (field: string, text: string, pattern = '^(.*)$') => ({
  tool: 'extract',
  target: { role: 'status', name: text },
  args: { field, pattern },
});
const done = { tool: 'done', args: { extracted: {} } };

/**
 * Clicks "Load more" until the page state shows the count, waiting while it shows the list still loading (a
 * disabled button), then reads the count: what a model does that sees only the page state after each action.
 */
function loadUntilShowing(count: string) {
  const step = (view: PromptView): ScriptStepInput | ScriptStepInput[] => {
    if (pageShows(view, count)) return { tool: 'extract', target: { text: count }, args: { field: 'shown' } };
    const button = view.page.find(line => line.role === 'button' && line.name === 'Load more');
    if (!button) throw new Error(`no "Load more" button and no "${count}" in the page state`);
    const next = { what: `load until "${count}" shows`, decide: step };
    if (/\(disabled\)/.test(button.rest)) return [{ tool: 'wait', args: { network_idle: true, seconds: 5 } }, next];
    return [{ tool: 'click', target: { ref: button.ref! } }, next];
  };
  return step;
}

/** The n-th name-less control the page state prints with this icon hint, by its ref. */
function nthIcon(icon: string, n: number) {
  return (view: PromptView): ScriptStepInput => {
    const lines = view.page.filter(line => line.role === 'clickable' && line.rest.includes(`icon="${icon}"`));
    const line = lines[n];
    if (!line?.ref) throw new Error(`the page state shows ${lines.length} controls with icon="${icon}", not ${n + 1}`);
    return { tool: 'click', target: { ref: line.ref } };
  };
}

/**
 * What a model does that needs a look at the pixels: with the image in its request it acts on what it sees; without
 * one it cannot tell, and says so (fail) rather than guess.
 */
function fromSight(what: string, act: (sight: string, view: PromptView) => ScriptStepInput) {
  return {
    what,
    decide: (view: PromptView): ScriptStepInput =>
      view.sight === undefined ? { tool: 'fail', args: { reason: `cannot ${what}: the page does not say it in words` } } : act(view.sight, view),
  };
}

/** Scrolls to the end until the page state shows the item, then reads it. */
function scrollUntilShowing(text: string) {
  const step = (view: PromptView): ScriptStepInput | ScriptStepInput[] => {
    if (pageShows(view, text)) return { tool: 'extract', target: { text }, args: { field: 'item_50' } };
    return [
      { tool: 'scroll', args: { direction: 'down', amount: 50 } },
      { what: `scroll until "${text}" shows`, decide: step },
    ];
  };
  return step;
}

export const WIDGET_CASE_TASKS: WidgetCaseTask[] = [
  task(
    'date-picker',
    'Pick 15 March 2026 as the check-in date with the calendar, then read back the selection.',
    { selected: 'string' },
    {
      steps: [
        { tool: 'click', target: { role: 'button', name: 'Choose date' }, reflection: { next_goal: 'open the calendar' } },
        { tool: 'click', target: { role: 'button', name: 'Next month' } },
        { tool: 'click', target: { role: 'button', name: 'Next month' }, reflection: { next_goal: 'reach March 2026' } },
        { tool: 'click', target: { role: 'button', name: '15' } },
        readBack('selected', 'Selected:', 'Selected: (.*)'),
        done,
      ],
    },
  ),
  task(
    'custom-combobox',
    'Assign the ticket to the Platform team, then read back the selection.',
    { selected: 'string' },
    {
      steps: [
        { tool: 'select_option', target: { role: 'combobox', name: 'Team' }, args: { value: 'Platform' } },
        readBack('selected', 'Selected:', 'Selected: (.*)'),
        done,
      ],
    },
  ),
  task(
    'native-select',
    'Choose overnight shipping, then read back the selection.',
    { selected: 'string' },
    {
      steps: [
        { tool: 'select_option', target: { role: 'combobox', name: 'Shipping method' }, args: { value: 'Overnight (1 business day)' } },
        readBack('selected', 'Selected:', 'Selected: (\\S+)'),
        done,
      ],
    },
  ),
  task(
    'cascading',
    'Ship to Toronto, Ontario, Canada (country, then state, then city), then read back the selection.',
    { selected: 'string' },
    {
      steps: [
        { tool: 'select_option', target: { role: 'combobox', name: 'Country' }, args: { value: 'Canada' } },
        { tool: 'select_option', target: { role: 'combobox', name: 'State / province' }, args: { value: 'Ontario' } },
        { tool: 'select_option', target: { role: 'combobox', name: 'City' }, args: { value: 'Toronto' } },
        readBack('selected', 'Selected:', 'Selected: (.*)'),
        done,
      ],
    },
  ),
  task(
    'autocomplete',
    'Choose Amsterdam as the destination through the suggestions, then read back the selection.',
    { selected: 'string' },
    {
      steps: [
        { tool: 'type', target: { role: 'textbox', name: 'Destination' }, args: { text: 'ams', slowly: true } },
        { tool: 'wait', args: { text: 'Amsterdam', seconds: 5 } },
        { tool: 'click', target: { text: 'Amsterdam' } },
        readBack('selected', 'Selected:', 'Selected: (.*)'),
        done,
      ],
    },
  ),
  task(
    'shadow-dom',
    'Subscribe ada@example.com to the newsletter, then read back the confirmation.',
    { subscribed: 'string' },
    {
      steps: [
        {
          batch: [
            { tool: 'type', target: { role: 'textbox', name: 'Email address' }, args: { text: 'ada@example.com' } },
            { tool: 'click', target: { role: 'button', name: 'Subscribe' } },
          ],
        },
        readBack('subscribed', 'Subscribed:', 'Subscribed: (.*)'),
        done,
      ],
    },
  ),
  task(
    'iframe-same',
    'Send the name Grace through the embedded contact form, then read what the page received.',
    { received: 'string' },
    {
      steps: [
        {
          batch: [
            { tool: 'type', target: { role: 'textbox', name: 'Your name' }, args: { text: 'Grace' } },
            { tool: 'type', target: { role: 'textbox', name: 'Message' }, args: { text: 'Hello from the bench' } },
            { tool: 'click', target: { role: 'button', name: 'Send' } },
          ],
        },
        readBack('received', 'Received from frame', 'Received from frame: (.*)'),
        done,
      ],
    },
  ),
  task(
    'load-more',
    'Load two more batches of products with "Load more", then read how many are shown.',
    { shown: 'string' },
    {
      steps: [{ what: 'load batches until 45 are shown, then read the count', decide: loadUntilShowing('Showing 45 of 75') }, done],
    },
  ),
  task(
    'infinite-scroll',
    'Scroll the feed until item 50 is loaded, then read its title.',
    { item_50: 'string' },
    {
      steps: [{ what: 'scroll until item 50 shows, then read it', decide: scrollUntilShowing('Item 50:') }, done],
    },
  ),
  task(
    'late-hydration',
    'Wait for the account page to load, then read the balance and the owner.',
    { balance: 'string', owner: 'string' },
    {
      steps: [
        { tool: 'wait', args: { text: 'Account overview', seconds: 10 } },
        {
          batch: [
            { tool: 'extract', target: { role: 'definition', name: '$1,240.50' }, args: { field: 'balance' } },
            { tool: 'extract', target: { role: 'definition', name: 'Grace Hopper' }, args: { field: 'owner' } },
          ],
        },
        done,
      ],
    },
  ),
  task(
    'modal',
    'Close the privacy dialog (reject non-essential cookies), start checkout, then read the cart status.',
    { status: 'string' },
    {
      steps: [
        { tool: 'click', target: { role: 'button', name: 'Reject non-essential' } },
        { tool: 'click', target: { role: 'button', name: 'Continue to checkout' } },
        readBack('status', 'Checkout started'),
        done,
      ],
    },
  ),
  task(
    'form-tabs',
    'Fill in the application (Ada Lovelace, ada@example.com, employer Analytical Engines, start 2026-03-01), submit it, then read the reference.',
    { reference: 'string' },
    {
      steps: [
        {
          batch: [
            { tool: 'type', target: { role: 'textbox', name: 'First name' }, args: { text: 'Ada' } },
            { tool: 'type', target: { role: 'textbox', name: 'Last name' }, args: { text: 'Lovelace' } },
            { tool: 'type', target: { role: 'textbox', name: 'Email' }, args: { text: 'ada@example.com' } },
          ],
        },
        { tool: 'click', target: { role: 'button', name: 'Next' } },
        {
          batch: [
            { tool: 'type', target: { role: 'textbox', name: 'Employer' }, args: { text: 'Analytical Engines' } },
            { tool: 'type', target: { label: 'Start date' }, args: { text: '2026-03-01' } },
            { tool: 'click', target: { role: 'button', name: 'Next' } },
          ],
        },
        { tool: 'click', target: { role: 'button', name: 'Submit application' } },
        { tool: 'wait', args: { text: 'Submitted:', seconds: 5 } },
        readBack('reference', 'Submitted:', 'Submitted: (REF-[0-9A-F]{6})'),
        done,
      ],
    },
  ),
  {
    ...task(
      'upload',
      'Attach receipt.txt, upload it, then read back what the page received.',
      { uploaded: 'string' },
      {
        steps: [
          {
            batch: [
              { tool: 'upload', target: { role: 'button', name: 'Attachments' }, args: { files: ['receipt.txt'] } },
              { tool: 'click', target: { role: 'button', name: 'Upload' } },
            ],
          },
          { tool: 'wait', args: { text: 'Uploaded:', seconds: 5 } },
          readBack('uploaded', 'Uploaded:'),
          done,
        ],
      },
    ),
    inputs: { 'receipt.txt': 'Taxi 12.50 EUR\n' },
  },
  task(
    'download',
    'Download the quarterly report (PDF) as evidence.',
    { report: 'string' },
    {
      steps: [
        {
          batch: [
            { tool: 'extract', target: { role: 'link', name: 'Quarterly report (PDF)' }, args: { field: 'report' } },
            { tool: 'download', target: { role: 'link', name: 'Quarterly report (PDF)' } },
          ],
        },
        done,
      ],
    },
  ),
  task(
    'new-tab',
    'Open the help page in a new tab and read its heading.',
    { heading: 'string' },
    {
      steps: [
        { tool: 'click', target: { role: 'link', name: 'Open help in a new tab' } },
        { tool: 'wait', args: { seconds: 1 }, reflection: { next_goal: 'let the new tab open' } },
        { tool: 'switch_tab', args: { tab: 2 } },
        { tool: 'extract', target: { role: 'heading', name: 'Popup target' }, args: { field: 'heading' } },
        done,
      ],
    },
  ),
  task(
    'dialogs',
    'Delete the draft (confirm the browser dialog), then read the result.',
    { result: 'string' },
    {
      steps: [{ tool: 'click', target: { role: 'button', name: 'Delete draft' } }, readBack('result', 'Confirm:'), done],
    },
    { dialog_policy: 'accept' },
  ),
  task(
    'svg-status',
    'Screenshot the checks, then report which checks failed (the status is shown only by icons).',
    { failing: 'array' },
    {
      steps: [
        {
          batch: [
            { tool: 'screenshot', args: { label: 'checks' } },
            {
              tool: 'extract',
              target: { role: 'heading', name: '7 checks' },
              args: { field: 'check_count', pattern: '(\\d+) checks', type: 'integer' },
            },
          ],
        },
        { tool: 'done', args: { extracted: { failing: ['build (windows-latest)', 'e2e tests'] } } },
      ],
      vision: [
        {
          contains: '/svg-status',
          answer: '- build (windows-latest): red X (failed)\n- e2e tests: red X (failed)\n- the other 5 checks: green check mark (passed)',
        },
      ],
    },
    { output_schema: { failing: 'array', check_count: 'number' }, required_fields: ['failing'] },
  ),
  task(
    'canvas-chart',
    'Screenshot the chart, then report the month with the most signups (the numbers are drawn on a canvas).',
    { max_month: 'string' },
    {
      steps: [
        {
          batch: [
            { tool: 'screenshot', args: { label: 'chart' } },
            { tool: 'extract', target: { role: 'heading', name: 'Canvas chart' }, args: { field: 'chart_heading' } },
          ],
        },
        { tool: 'done', args: { extracted: { max_month: 'Jun' } } },
      ],
      vision: [
        { contains: '/canvas-chart', answer: '- bar chart "Monthly signups, 2026": Jan 120, Feb 340, Mar 275, Apr 410, May 385, Jun 502 (highest)' },
      ],
    },
    { output_schema: { max_month: 'string', chart_heading: 'string' }, required_fields: ['max_month'] },
  ),
  // Issue 36: pages whose state is pixels or looks — the model looks (screenshot) and sees it in its next decision.
  task(
    'tic-tac-toe',
    'Win the game of tic-tac-toe (you play crosses), then read the result the page gives. Look at the board before each move.',
    { result: 'string' },
    {
      steps: [
        ...[4, 8, 2, 6].flatMap((cell, move) => [
          { tool: 'screenshot', args: { label: `board-${move + 1}`, full_page: false } },
          { what: `play cell ${cell}`, decide: nthIcon('cell', cell) },
        ]),
        readBack('result', 'You won in 4 moves'),
        done,
      ],
      vision: [{ contains: '/tic-tac-toe', answer: 'the board: crosses and noughts as drawn' }],
    },
  ),
  task(
    'shape-quiz',
    'Answer which shape is drawn (look at it first), then read the verdict.',
    { verdict: 'string' },
    {
      steps: [
        { tool: 'screenshot', args: { label: 'shape', full_page: false } },
        fromSight('name the drawn shape', sight => ({ tool: 'click', target: { role: 'button', name: sight } })),
        readBack('verdict', 'Right: a triangle'),
        done,
      ],
      vision: [{ contains: '/shape-quiz', answer: 'triangle' }],
    },
  ),
  task(
    'colour-tiles',
    'Pick the red tile, then read back which tile was picked.',
    { picked: 'string' },
    {
      steps: [
        fromSight('tell the tiles apart by colour', (sight, view) => nthIcon('tile', Number(/tile (\d+) is red/.exec(sight)?.[1]) - 1)(view)),
        readBack('picked', 'Picked tile 3'),
        done,
      ],
      vision: [{ contains: '/colour-tiles', answer: 'six tiles left to right: green, blue, red, yellow, purple, teal — tile 3 is red' }],
    },
  ),
];
