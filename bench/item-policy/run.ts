/**
 * Item-control policy benchmark: `npx tsx bench/item-policy/run.ts [--episodes 6] [--seed 36]`
 *
 * A scripted policy that reads only the page state (observation text) decides every action on the widget lab's
 * item-control pages — star or delete a given sender's mail, reply to or forward it, act on a given post's icon (also
 * after the feed was drawn again, and in a virtual list it must scroll), page a calendar forward and pick a day, set
 * a slider, click the leftmost or rightmost icon of a toolbar — and acts through bwa's action layer. The page's own
 * status line judges each episode. Seeded: the same seed gives the same episodes, so one file measures main and a
 * branch (before/after).
 */
import type { BrowserContext, Page } from '@playwright/test';
import * as os from 'node:os';
import * as path from 'node:path';
import { dispatch } from '../../agent/actions/core/dispatch';
import type { ActionEnv, KnownElement } from '../../agent/actions/core/types';
import { ContextTabs } from '../../agent/browser/context-tabs';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
import { EvidenceStore } from '../../agent/evidence/store';
import { knownElements } from '../../agent/loop/view';
import { PageStateFocus } from '../../agent/loop/page-state-focus';
import { installClickListenerMarks } from '../../agent/snapshot/click-listeners';
import { observe } from '../../agent/snapshot';
import { defineCommand } from '../../agent/cli/command';
import { wholeNumberText } from '../../agent/env/kinds';
import { listenSite, type RunningSite } from '../../fixtures/lib/listen';
import { Prng } from '../../fixtures/lib/prng';
import { MAIL_ROWS } from '../../fixtures/sites/widgets/cases/mail-rows';
import { FEED_POSTS } from '../../fixtures/sites/widgets/cases/post-feed';
import { KNOBS } from '../../fixtures/sites/widgets/cases/knob-sliders';
import { REORDERED_TOOLBARS } from '../../fixtures/sites/widgets/cases/reversed-icons';
import { widgetsSite } from '../../fixtures/sites/widgets/site';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { runBench } from '../lib/command';

const WIDGETS = 'http://127.0.0.1:4102';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const REF = '((?:c|(?:f\\d+)?e)\\d+)';

/** The policy gave up: the page state did not show what it needed. */
class NotShown extends Error {}

/** What the policy has: the latest page state and the actions. */
class Agent {
  private elements: ReadonlyMap<string, KnownElement> = new Map();
  private readonly focus = new PageStateFocus();
  text = '';

  constructor(
    private readonly page: Page,
    private readonly context: BrowserContext,
    private readonly tabs: ContextTabs,
    private readonly store: EvidenceStore,
  ) {}

  async look(): Promise<string> {
    const observation = await observe(this.page, this.focus.forNextLook(this.page.url()));
    this.focus.remember(observation);
    this.elements = knownElements(observation);
    this.text = observation.text;
    return this.text;
  }

  /** The ref in the first line matching `pattern` (its first group). */
  ref(pattern: string, lines = this.text.split('\n')): string {
    for (const line of lines) {
      const match = new RegExp(pattern).exec(line);
      if (match?.[1]) return match[1];
    }
    throw new NotShown(`${pattern}${lines.length === 1 ? ` in ${lines[0]?.slice(0, 200)}` : ''}`);
  }

  async act(name: string, args: Record<string, unknown>): Promise<void> {
    const env: ActionEnv = {
      page: this.page,
      context: this.context,
      store: this.store,
      signal: new AbortController().signal,
      policy: {
        isAllowedUrl: () => true,
        resolvePlaceholders: text => text,
        inputDir: os.tmpdir(),
        beforeNavigation: async () => {},
        maxDownloadBytes: 1024 * 1024,
      },
      tabs: this.tabs,
      elements: this.elements,
      pageState: this.focus,
      reader: 'model',
      step: 1,
    };
    const result = await dispatch({ name, args }, env);
    if (!result.success) throw new NotShown(`${name} ${JSON.stringify(args)}: ${result.error ?? ''}`);
  }
}

interface Episode {
  kind: string;
  url: string;
  run(agent: Agent): Promise<void>;
  /** The page's own words when the task is done. */
  expect: string | RegExp;
  /** Where the page says it. */
  readout: string;
}

/** The lines of the row whose line holds `words` under it. */
function rowLines(text: string, words: string): string[] {
  const lines = text.split('\n');
  const depth = (index: number) => /^ */.exec(lines[index] ?? '')?.[0].length ?? 0;
  const start = lines.findIndex(line => line.includes(words));
  if (start < 0) throw new NotShown(words);
  let head = start;
  while (head > 0 && depth(head) >= depth(start)) head--;
  const end = lines.findIndex((_, index) => index > head && depth(index) <= depth(head));
  return lines.slice(head, end === -1 ? undefined : end);
}

function episodes(random: Prng, perKind: number): Episode[] {
  const all: Episode[] = [];
  for (let i = 0; i < perKind; i++) {
    const row = random.pick(MAIL_ROWS);
    all.push({
      kind: 'star a mail',
      url: '/mail-rows',
      run: async agent => agent.act('click', { target: agent.ref(`\\[${REF}\\] clickable icon="[^"]*star[^"]*"[^\\[]*near="${literal(row.from)}"`) }),
      expect: `${row.starred ? 'unstarred' : 'starred'} ${row.from}`,
      readout: '#status',
    });
    const binned = random.pick(MAIL_ROWS);
    all.push({
      kind: 'delete a mail',
      url: '/mail-rows',
      run: async agent =>
        agent.act('click', { target: agent.ref(`\\[${REF}\\] clickable icon="[^"]*bin[^"]*"[^\\[]*near="${literal(binned.from)}"`) }),
      expect: `deleted ${binned.from}`,
      readout: '#status',
    });
    const answered = random.pick(MAIL_ROWS);
    const forward = random.chance(0.5);
    all.push({
      kind: 'reply to or forward a mail',
      url: '/mail-rows',
      run: async agent => {
        await agent.act('click', { target: agent.ref(`^\\[${REF}\\]`, rowLines(agent.text, `"${answered.from}"`)) });
        await agent.look();
        await agent.act('click', { target: agent.ref(`\\[${REF}\\] clickable icon="[^"]*${forward ? 'forward' : 'reply'}`) });
        await agent.look();
        const field = agent.ref(forward ? `\\[${REF}\\] textbox "Forward to"` : `\\[${REF}\\] textbox "Reply to`);
        await agent.act('type', { target: field, text: forward ? 'ana@example.org' : 'Thanks' });
        await agent.act('click', { target: agent.ref(`\\[${REF}\\] button "Send"`) });
      },
      expect: forward ? 'sent to ana@example.org: ana@example.org' : `sent to ${answered.from}: Thanks`,
      readout: '#status',
    });
    const post = random.pick(FEED_POSTS);
    const icon = random.pick(['comment', 'boost', 'heart', 'more']);
    const redrawn = random.chance(0.5);
    all.push({
      kind: redrawn ? "a post's icon, feed drawn again" : "a post's icon, feed scrolled",
      url: '/post-feed',
      run: async agent => {
        if (redrawn) {
          await agent.act('click', { target: agent.ref(`\\[${REF}\\] button "Show 1 new post"`) });
          await agent.look();
        } else {
          await agent.act('scroll', { target: agent.ref(`\\[${REF}\\] section \\(scrolls`), direction: 'down', amount: random.int(1, 3) });
          await agent.look();
        }
        const line = agent.text.split('\n').filter(candidate => candidate.includes(`"${post.name} @`));
        await agent.act('click', { target: agent.ref(`\\[${REF}\\] clickable icon="[^"]*${icon}`, line) });
      },
      expect: `${icon} on the post by ${post.name}`,
      readout: '#status',
    });
    const far = random.pick(FEED_POSTS.slice(4));
    all.push({
      kind: "a post's icon, virtual list",
      url: '/post-feed?window=4',
      run: async agent => {
        for (let scrolls = 0; !agent.text.includes(`"${far.name} @`) && scrolls < 8; scrolls++) {
          await agent.act('scroll', { target: agent.ref(`\\[${REF}\\] section`), direction: 'down', amount: 1 });
          await agent.look();
        }
        const line = agent.text.split('\n').filter(candidate => candidate.includes(`"${far.name} @`));
        await agent.act('click', { target: agent.ref(`\\[${REF}\\] clickable icon="[^"]*heart`, line) });
      },
      expect: `heart on the post by ${far.name}`,
      readout: '#status',
    });
    const ahead = random.int(1, 4);
    const day = random.int(1, 28);
    all.push({
      kind: 'a date months ahead',
      url: '/month-stepper',
      run: async agent => {
        for (let step = 0; step < ahead; step++) {
          await agent.act('click', { target: agent.ref(`\\[${REF}\\] clickable "Next"`) });
          await agent.look();
        }
        if (!agent.text.includes(`"${MONTHS[(2 + ahead) % 12]} 2021"`)) throw new NotShown('the month after paging');
        await agent.act('click', { target: agent.ref(`\\[${REF}\\] link "${day}"`) });
      },
      expect: `Pick-up: ${String(day).padStart(2, '0')}/${String(3 + ahead).padStart(2, '0')}/2021`,
      readout: '#result',
    });
    const knob = random.pick(KNOBS);
    const target = random.int(0, knob.max);
    all.push({
      kind: 'set a slider',
      url: '/knob-sliders',
      run: async agent => {
        const handle = agent.ref(`\\[${REF}\\] clickable icon="[^"]*knob"[^\\[]*near="${knob.label}`);
        const current = Number(new RegExp(`"${knob.label}: (\\d+)"`).exec(agent.text)?.[1] ?? NaN);
        if (Number.isNaN(current)) throw new NotShown(`${knob.label}'s value`);
        for (let step = 0; step < Math.abs(target - current); step++)
          await agent.act('press', { target: handle, key: target > current ? 'ArrowRight' : 'ArrowLeft' });
      },
      expect: `${knob.label}: ${target}`,
      readout: `#${knob.id}-readout`,
    });
    const bar = random.pick(REORDERED_TOOLBARS);
    const leftmost = random.chance(0.5);
    const shown = leftmost ? bar.shown[0] : bar.shown.at(-1);
    all.push({
      kind: 'the leftmost or rightmost icon of a toolbar',
      url: '/reversed-icons',
      run: async agent => {
        // The toolbars, in page order, are the clickable lines with icon lines under them.
        const lines = agent.text.split('\n');
        const heads = lines.flatMap((line, index) => (/^\[[^\]]+\] clickable$/.test(line) && lines[index + 1]?.startsWith(' [') ? [index] : []));
        const head = heads[REORDERED_TOOLBARS.indexOf(bar)];
        if (head === undefined) throw new NotShown('the toolbar');
        const end = lines.findIndex((line, index) => index > head && !line.startsWith(' '));
        const icons = lines.slice(head + 1, end === -1 ? undefined : end);
        const chosen = leftmost ? icons[0] : icons.at(-1);
        await agent.act('click', { target: agent.ref(`^ \\[${REF}\\]`, [chosen ?? '']) });
      },
      expect: `${bar.id}: ${shown![0]!.toUpperCase()}${shown!.slice(1)}`,
      readout: '#status',
    });
  }
  return all;
}

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

async function main(perKind: number, seed: number): Promise<void> {
  const server: RunningSite | undefined = (await isUp(WIDGETS)) ? undefined : await listenSite(widgetsSite, '127.0.0.1');
  const browser = await launchChromium();
  const results = new Map<string, { done: number; total: number; misses: string[] }>();
  try {
    for (const episode of episodes(new Prng(seed), perKind)) {
      const context = await browser.newContext(CONTEXT_OPTIONS);
      // As a sample's context has them: page-side helpers run under tsx, and click listeners are seen.
      await installEvaluateShim(context);
      await installClickListenerMarks(context);
      const page = await context.newPage();
      const agent = new Agent(page, context, new ContextTabs(context, page), new EvidenceStore(path.join(os.tmpdir(), 'bwa-item-policy')));
      let miss = '';
      try {
        await page.goto(`${WIDGETS}${episode.url}`);
        await agent.look();
        await episode.run(agent);
        const said = ((await page.locator(episode.readout).textContent()) ?? '').trim();
        const done = typeof episode.expect === 'string' ? said === episode.expect : episode.expect.test(said);
        if (!done) miss = `page says "${said}", wanted "${String(episode.expect)}"`;
      } catch (error) {
        miss = error instanceof NotShown ? `not in the page state: ${error.message}` : String(error);
      } finally {
        await context.close();
      }
      const row = results.get(episode.kind) ?? { done: 0, total: 0, misses: [] };
      row.total++;
      if (miss) row.misses.push(miss.slice(0, 160));
      else row.done++;
      results.set(episode.kind, row);
      console.error(`${episode.kind}: ${miss || 'done'}`);
    }
  } finally {
    await browser.close();
    await server?.close();
  }
  const rows = [...results];
  const done = rows.reduce((sum, [, row]) => sum + row.done, 0);
  const total = rows.reduce((sum, [, row]) => sum + row.total, 0);
  console.log('| episode | done | first miss |\n|---|---|---|');
  for (const [kind, row] of rows) console.log(`| ${kind} | ${row.done} / ${row.total} | ${row.misses[0] ?? ''} |`);
  console.log(`| all | ${done} / ${total} (${((done / total) * 100).toFixed(1)}%) | |`);
}

const benchCommand = defineCommand({
  program: 'npx tsx',
  name: 'bench/item-policy/run.ts',
  summary: "A scripted policy that reads only the page state, on the widget lab's item-control pages: episodes done",
  options: {
    episodes: { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: 'episodes of each kind (default 6)' },
    seed: { type: 'string', placeholder: 'n', value: wholeNumberText(0), help: 'the episodes drawn (default 36)' },
  },
  positionals: [],
  run: async ({ options }) => {
    await main(options.episodes ?? 6, options.seed ?? 36);
    return 0;
  },
});

runBench(benchCommand);
