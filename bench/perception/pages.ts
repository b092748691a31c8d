/**
 * Benchmark pages. Generated pages look like a busy app page — banner with nav and search, a sidebar,
 * sections of headings, prose, lists, card grids and tables, a footer full of links — with a handful of
 * task-relevant needles planted deep inside. Each page says which strings the prompt must still show.
 */

export interface BenchPage {
  name: string;
  /** Either inline HTML (setContent) or a URL to open. */
  html?: string;
  url?: string;
  /** Resolves when the page is ready to observe. */
  ready?: string;
  keywords: string[];
  /** Task-relevant facts that must survive pruning (substrings of the prompt text, or patterns it must match). */
  mustSee: Array<string | RegExp>;
}

const WORDS = [
  'ledger',
  'budget',
  'engine',
  'review',
  'deploy',
  'search',
  'market',
  'signal',
  'vector',
  'report',
  'cohort',
  'render',
  'socket',
  'parcel',
  'harbor',
];

function word(i: number): string {
  return WORDS[i % WORDS.length] ?? 'item';
}

function sentence(seed: number, length: number): string {
  return Array.from({ length }, (_, i) => word(seed * 7 + i * 3)).join(' ');
}

function section(i: number): string {
  const cards = Array.from({ length: 6 }, (_, c) => {
    const n = i * 6 + c;
    return `<div class="card"><h3>${word(n)} ${n}</h3><p>${sentence(n, 12)}.</p><a href="/items/${n}">Open ${word(n)} ${n}</a> <button>Star</button></div>`;
  }).join('');
  const rows = Array.from({ length: 10 }, (_, r) => {
    const n = i * 10 + r;
    return `<tr><td>${word(n)}-${n}</td><td>2026-0${(n % 9) + 1}-1${n % 9}</td><td>$${(n * 37) % 9000}.00</td><td><a href="/rows/${n}">view</a></td></tr>`;
  }).join('');
  const items = Array.from({ length: 5 }, (_, l) => `<li>${sentence(i + l, 5)} <a href="/tags/${i}-${l}">#${word(i + l)}</a></li>`).join('');
  return `<section><h2>Section ${i}: ${word(i)} overview</h2>
<p>${sentence(i, 30)}.</p><p>${sentence(i + 1, 24)}.</p>
<ul>${items}</ul>
<div class="grid">${cards}</div>
<table><thead><tr><th>Ref</th><th>Date</th><th>Amount</th><th></th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function chrome(kind: 'nav' | 'aside' | 'footer', count: number): string {
  const links = Array.from({ length: count }, (_, i) => `<a href="/${kind}/${i}">${word(i)} ${kind} ${i}</a>`).join(' ');
  return kind === 'footer' ? `<footer>${links} <a href="/jobs">Careers at Initrode</a></footer>` : `<${kind}>${links}</${kind}>`;
}

const NEEDLES = {
  keywords: ['INV-48213', 'Globex', 'careers'],
  mustSee: ['INV-48213', 'Globex Corp | 2025-11-03 | $4,210.00', 'Careers at Initrode', 'value="Ada Lovelace"', 'Payment overdue'],
};

/** A page of roughly `targetElements` DOM elements with the needles planted at 10%, 60% and 90% depth. */
export function generatedPage(targetElements: number): BenchPage {
  const perSection = (section(0).match(/<[a-z]/g) ?? []).length;
  const sections = Math.max(1, Math.round((targetElements - 260) / perSection));
  const body: string[] = [];
  for (let i = 0; i < sections; i++) {
    if (i === Math.floor(sections * 0.1)) {
      body.push('<form><label>Full name <input name="full" value="Ada Lovelace"></label> <button>Save profile</button></form>');
      body.push('<div role="alert">Payment overdue: your card was declined.</div>');
    }
    if (i === Math.floor(sections * 0.6)) body.push('<p><a href="/invoices/48213.pdf">Download invoice INV-48213</a></p>');
    if (i === Math.floor(sections * 0.9)) {
      body.push(
        '<table><tr><th>Customer</th><th>Date</th><th>Amount</th></tr><tr><td>Globex Corp</td><td>2025-11-03</td><td>$4,210.00</td></tr></table>',
      );
    }
    body.push(section(i));
  }
  const html = `<!doctype html><title>Workspace · ${targetElements}</title>
<header><a href="/">Home</a> <input type="search" aria-label="Search workspace"> ${chrome('nav', 40)}</header>
${chrome('aside', 50)}
<main><h1>Workspace activity</h1>${body.join('\n')}</main>
${chrome('footer', 60)}`;
  return { name: `generated ${targetElements}`, html, ...NEEDLES };
}

/** Widget-lab pages (fixtures/sites/widgets), with what a task on each would need to see. */
export function widgetPages(base: string, peopleUp: boolean): BenchPage[] {
  const pages: BenchPage[] = [
    {
      name: 'widgets/big-page',
      url: `${base}/big-page`,
      keywords: ['INV-7731'],
      mustSee: ['Invoice INV-7731 | 2025-11-03 | Globex Ltd | $4,210.00 | Overdue'],
    },
    {
      name: 'widgets/big-page (quarterly)',
      url: `${base}/big-page`,
      keywords: ['quarterly totals'],
      mustSee: ['Q1 | $1,204,311.50', 'Q2 | $1,387,902.25', 'Q3 | $1,156,440.00', 'Q4 | $1,498,075.75'],
    },
    {
      name: 'widgets/svg-status',
      url: `${base}/svg-status`,
      keywords: ['checks'],
      mustSee: ['build (ubuntu-latest)', 'build (windows-latest)', 'e2e tests', 'license/cla'],
    },
    { name: 'widgets/canvas-chart', url: `${base}/canvas-chart`, keywords: [], mustSee: ['Signups per month'] },
    {
      name: 'widgets/shadow-dom',
      url: `${base}/shadow-dom`,
      ready: 'button',
      keywords: [],
      mustSee: ['textbox "Email address"', 'button "Subscribe"'],
    },
    { name: 'widgets/iframe-same', url: `${base}/iframe-same`, ready: 'iframe', keywords: [], mustSee: ['textbox "Your name"', 'button "Send"'] },
    {
      name: 'widgets/late-hydration',
      url: `${base}/late-hydration?hydrate_ms=300`,
      ready: 'h1',
      keywords: [],
      mustSee: ['ACC-20931', 'Grace Hopper', 'button "Download statement"'],
    },
    { name: 'widgets/form-tabs', url: `${base}/form-tabs`, keywords: [], mustSee: ['textbox "First name" (required)', 'tab "Personal" (selected)'] },
  ];
  if (peopleUp)
    pages.push({
      name: 'widgets/iframe-cross',
      url: `${base}/iframe-cross`,
      ready: 'iframe',
      keywords: [],
      mustSee: ['heading "Ada Lovelace', 'button "Follow"'],
    });
  return pages;
}
