import { openBrowser } from '../browser/remote';
import { look } from '../look/look';
import { formatLook } from '../look/print';
import { taskSubject, urlSubject } from '../look/subject';
import { defineCommand, UsageError } from './command';
import { listed } from './listing';

export const lookCommand = defineCommand({
  ...listed('look'),
  about: [
    'Prints the page state a model-decided sample is sent on its first look at the page (no key needed, no request made),',
    'then what the page says about itself (meta tags, JSON-LD, microdata, <time>) with the {"document", "key"} target',
    'extract reads each fact by, and for each --ref the locators a recipe step could point at that element with.',
    "With --task, the task's start page for one of its samples (the first unless --sample names one): its keywords, its",
    "allowed_domains, and its auth profile's saved sign-in when there is one. Details: docs/recipes.md#looking-at-a-page",
  ].join('\n'),
  options: {
    task: { type: 'string', placeholder: 'task_id', help: "open the task's start page instead of a URL" },
    sample: { type: 'string', placeholder: 'sample_id', help: 'with --task: the sample whose row fills the start URL (default: the first)' },
    ref: {
      type: 'string',
      placeholder: 'ref',
      multiple: true,
      help: 'an element of the page state (e.g. e12) to print recipe targets for (repeat it)',
    },
    full: { type: 'boolean', help: 'no token budget: every line the pruning keeps' },
    json: { type: 'boolean', help: 'print one JSON object instead of text' },
  },
  positionals: [{ name: 'url', optional: true }],
  async run({ args: { url }, options }) {
    if (url && options.task) throw new UsageError('give a URL or --task, not both');
    if (!url && !options.task) throw new UsageError('missing <url> (or --task <task_id>)');
    if (options.sample && !options.task) throw new UsageError('--sample needs --task');
    const subject = options.task ? taskSubject(options.task, options.sample) : urlSubject(url!);
    const browser = await openBrowser();
    try {
      const seen = await look(browser, subject, { full: options.full, refs: options.ref });
      console.log(options.json ? JSON.stringify(seen, null, 2) : formatLook(seen).join('\n'));
      return 0;
    } finally {
      await browser.close();
    }
  },
});
