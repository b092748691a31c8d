/**
 * What masking secrets costs, and whether it finds them: every saved real page of a corpus with secrets planted in
 * the forms a page gives them (as typed, JSON-escaped, URL- and HTML-encoded, glued into a longer token), masked by
 * SecretMasker.text — bwa's one masking, run at every boundary — beside a raw `split(value).join(placeholder)` of the
 * plain values (which finds only the typed form, and cuts `1234` out of `1234.50`). Prints the time of each (median
 * of --runs), their ratio, the planted occurrences each found, and the page's own text each changed.
 * Usage: npx tsx bench/masking/run.ts [--pages ../shared/corpora/article-pages] [--runs 5]
 */
import * as path from 'node:path';
import { SecretMasker } from '../../agent/secrets/masker';
import { secretPlaceholder } from '../../agent/secrets/placeholders';
import { readCorpus, readPageHtml } from '../perception/corpus';
import { median, table } from '../lib/stats';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const dir = path.resolve(option('--pages', '../shared/corpora/article-pages'));
const runs = Number(option('--runs', '5'));

/** One of each kind bwa's validate tells apart: a number, a word, a quoted password, a distinctive key, a passphrase. */
const SECRETS: Record<string, string> = {
  PIN: '4821',
  USER: 'auditor',
  PASSWORD: 'pa"ss\\wo rd9',
  API_KEY: 'Zq7xK2mP9wR4',
  PASSPHRASE: 'correct horse battery staple',
};
const json = (text: string) => JSON.stringify(text).slice(1, -1);
const html = (text: string) => text.replace(/"/g, '&quot;').replace(/ /g, '&nbsp;');
/** Where each secret is planted, in a form a page or a URL gives it; each is one occurrence to find. */
const PLANTED: Array<[name: string, form: (value: string) => string]> = [
  ['PIN', v => `PIN ${v}.`],
  ['USER', v => `Signed in as ${v}`],
  ['USER', v => `{"user":"${json(v)}"}`],
  ['PASSWORD', v => `value="${html(v)}"`],
  ['PASSWORD', v => `?p=${encodeURIComponent(v)}&x=1`],
  ['PASSWORD', v => `"${json(json(v))}"`],
  ['API_KEY', v => `key sk_live_${v} `],
  ['API_KEY', v => `Bearer%20${encodeURIComponent(v)}==`],
  ['PASSPHRASE', v => `<p>${v}</p>`],
];

/** Around each plant, so its own span is judged, not another occurrence the page has of its own. */
const OPEN = '\u27e6';
const CLOSE = '\u27e7';

const corpus = readCorpus(dir);
const pages = corpus.map((page, i) => {
  const text = readPageHtml(dir, page.id);
  // Each page gets one planted form, in turn, at its middle: the masker must find it among the page's own text.
  const [name, form] = PLANTED[i % PLANTED.length]!;
  const at = Math.floor(text.length / 2);
  return {
    text: `${text.slice(0, at)} ${OPEN}${form(SECRETS[name]!)}${CLOSE} ${text.slice(at)}`,
    own: text,
    planted: name,
    form: form(SECRETS[name]!),
  };
});
const bytes = pages.reduce((total, page) => total + Buffer.byteLength(page.text), 0);
const masker = SecretMasker.of(SECRETS);
const entries = Object.entries(SECRETS);
const raw = (text: string) => entries.reduce((out, [name, value]) => out.split(value).join(secretPlaceholder(name)), text);

function timed(mask: (text: string) => string): { ms: number; outputs: string[] } {
  const times: number[] = [];
  let outputs: string[] = [];
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    outputs = pages.map(page => mask(page.text));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ms: median(times), outputs };
}

const masked = timed(text => masker.text(text));
const replaced = timed(raw);
/** The planted span masked (its placeholder in, its form gone), and how many pages' own text was changed besides. */
const plantedSpan = (output: string) => output.slice(output.indexOf(OPEN) + 1, output.indexOf(CLOSE));
const judge = (outputs: string[], mask: (text: string) => string) => ({
  found: pages.filter((page, i) => {
    const span = plantedSpan(outputs[i]!);
    return span.includes(secretPlaceholder(page.planted)) && !span.includes(page.form);
  }).length,
  ownChanged: pages.filter(page => mask(page.own) !== page.own).length,
});
const maskedFound = judge(masked.outputs, text => masker.text(text));
const replacedFound = judge(replaced.outputs, raw);

console.log(
  `${pages.length} saved pages, ${(bytes / 1e6).toFixed(1)} MB, ${entries.length} secrets, one planted form per page; median of ${runs} runs\n`,
);
console.log(
  table(
    ['how', 'ms', 'planted found', 'pages whose own text changed'],
    [
      [
        'SecretMasker.text (every form, whole tokens, distinctive inside tokens)',
        masked.ms,
        `${maskedFound.found}/${pages.length}`,
        maskedFound.ownChanged,
      ],
      ['raw split/join of the plain values', replaced.ms, `${replacedFound.found}/${pages.length}`, replacedFound.ownChanged],
    ],
  ),
);
console.log(`\ntime masker / raw replace: ${(masked.ms / replaced.ms).toFixed(1)}×`);
