import type { Observation } from '../../agent/snapshot';

/**
 * What a saved page's metadata says of its title, its authors and its published date, read from its HTML with broad
 * patterns of the bench's own — any meta whose name says title, author or published date, JSON-LD's headline,
 * author and datePublished wherever they sit (CDATA or not), Parse.ly's JSON, microdata's datePublished — never with
 * bwa's collector. It is the reference the page state's document section is scored against: does the section show
 * what the page's metadata says?
 */
export interface MetadataReference {
  titles: string[];
  authors: string[];
  /** YYYY-MM-DD as written. */
  published: string[];
}

export type Coverage = 'shown' | 'folded' | 'missing' | 'absent';

export interface MetadataCoverage {
  title: Coverage;
  author: Coverage;
  published: Coverage;
  reference: MetadataReference;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') return String.fromCodePoint(code[1]?.toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : Number(code.slice(1)));
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g))
    found[match[1]!.toLowerCase()] = decode(match[2] ?? match[3] ?? match[4] ?? '');
  return found;
}

/** The date a value says, as written: an ISO date in it, or what Date.parse makes of it; the zero time ("0001-01-01") is none. */
export function dateKey(value: string): string | undefined {
  const iso = /(\d{4})-(\d{2})-(\d{2})/.exec(value);
  const parsed = Date.parse(value);
  const date = iso ? iso[0] : Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString().slice(0, 10);
  return date && Number(date.slice(0, 4)) >= 1000 ? date : undefined;
}

const TITLE_KEY = /(^|[:._-])(title|headline)$/;
const AUTHOR_KEY = /(author|creator|byl|byline|writer)/;
const PUBLISHED_KEY = /(publish|pub[-_]?date|issued|created|(^|[:._-])date$|release_date)/;
const NOT_PUBLISHED = /(modif|updat|expir|valid)/;

export function metadataReference(html: string): MetadataReference {
  const titles = new Set<string>();
  const authors = new Set<string>();
  const published = new Set<string>();
  const addAuthor = (name: string) => {
    const clean = name.replace(/\s+/g, ' ').trim();
    if (clean && !/^(https?:|@)/i.test(clean) && clean.length <= 120) authors.add(clean);
  };
  for (const [tag] of html.matchAll(/<meta\s[^>]*>/gi)) {
    const attrs = attributes(tag);
    const key = (attrs.property ?? attrs.name ?? attrs.itemprop ?? '').toLowerCase();
    const content = (attrs.content ?? '').trim();
    if (!key || !content) continue;
    if (key === 'parsely-page') {
      try {
        const page = JSON.parse(content) as { title?: string; pub_date?: string; author?: string; authors?: string[] };
        if (page.title) titles.add(page.title);
        const date = page.pub_date && dateKey(page.pub_date);
        if (date) published.add(date);
        for (const name of [page.author, ...(page.authors ?? [])]) if (name) addAuthor(name);
      } catch {
        // Not JSON: says nothing.
      }
      continue;
    }
    if (TITLE_KEY.test(key) && !/(app|site)/.test(key)) titles.add(content);
    else if (AUTHOR_KEY.test(key) && !/(:id$|url|image)/.test(key)) addAuthor(content);
    else if (PUBLISHED_KEY.test(key) && !NOT_PUBLISHED.test(key)) {
      const date = dateKey(content);
      if (date) published.add(date);
    }
  }
  for (const [, body] of html.matchAll(/<script[^>]*ld\+json[^>]*>([\s\S]*?)<\/script>/gi)) {
    const text = body ?? '';
    const string = (pattern: RegExp) => {
      const match = pattern.exec(text)?.[1];
      if (match === undefined) return undefined;
      try {
        return JSON.parse(`"${match}"`) as string;
      } catch {
        return match;
      }
    };
    const headline = string(/"headline"\s*:\s*"((?:\\.|[^"\\])*)"/);
    if (headline) titles.add(headline);
    for (const match of [...text.matchAll(/"datePublished"\s*:\s*"([^"]+)"/g)].slice(0, 2)) {
      const date = dateKey(match[1]!);
      if (date) published.add(date);
    }
    for (const name of jsonLdAuthors(text).slice(0, 2)) addAuthor(name);
  }
  for (const [tag] of html.matchAll(/<[a-z]+\s[^>]*itemprop=["']?datePublished[^>]*>/gi)) {
    const attrs = attributes(tag);
    const date = dateKey(attrs.content ?? attrs.datetime ?? '');
    if (date) published.add(date);
  }
  return { titles: [...titles], authors: [...authors], published: [...published] };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * The names a JSON-LD block gives as "author" or "creator", in the order they appear: a string, an object's name, or
 * the name of the node its "@id" points at. The block is parsed as JSON once its CDATA or comment wrapping is off.
 */
function jsonLdAuthors(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\s*(\/\/|\/\*)?\s*<!\[CDATA\[(\s*\*\/)?|(\/\/|\/\*)?\s*\]\]>(\s*\*\/)?\s*$|^\s*<!--|-->\s*$/g, ''));
  } catch {
    return [];
  }
  const nodes: Json[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      nodes.push(value);
      Object.values(value).forEach(walk);
    }
  };
  walk(parsed);
  const named = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (!isObject(value)) return undefined;
    if (typeof value.name === 'string') return value.name;
    const id = value['@id'];
    const target = typeof id === 'string' ? nodes.find(node => node !== value && node['@id'] === id && typeof node.name === 'string') : undefined;
    return target?.name as string | undefined;
  };
  return nodes.flatMap(node =>
    ['author', 'creator'].flatMap(key =>
      ([] as unknown[])
        .concat(node[key] ?? [])
        .map(named)
        .filter((name): name is string => Boolean(name)),
    ),
  );
}

/** Case, accents' forms and punctuation aside: how names and titles are compared. */
export const norm = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether the page state's document section shows what the reference holds: printed, folded into its last line, or not at all. */
export function metadataCoverage(state: Observation, reference: MetadataReference): MetadataCoverage {
  const lines = state.text.split('\n');
  const printed = new Set([...lines.filter(line => /^ \[d\d+\] /.test(line)).map(line => /^ \[(d\d+)\]/.exec(line)![1]!)]);
  const titleLine = /^Title: "(.*)"$/m.exec(state.text)?.[1] ?? '';
  const cover = (has: boolean, matches: (fact: Observation['document'][number]) => boolean, alsoShown = false): Coverage => {
    if (!has) return 'absent';
    const found = state.document.filter(matches);
    if (alsoShown || found.some(fact => printed.has(fact.ref))) return 'shown';
    return found.length ? 'folded' : 'missing';
  };
  const dates = new Set(reference.published);
  const authors = reference.authors.map(norm).filter(Boolean);
  const titles = reference.titles.map(norm).filter(Boolean);
  return {
    reference,
    published: cover(dates.size > 0, fact => ['published', 'time', 'other'].includes(fact.field) && dates.has(dateKey(fact.value) ?? '')),
    author: cover(authors.length > 0, fact => {
      if (fact.field !== 'author' && fact.field !== 'other') return false;
      const value = norm(fact.value);
      return value.length > 1 && authors.some(name => name === value || name.includes(value) || value.includes(name));
    }),
    title: cover(
      titles.length > 0,
      fact => fact.field === 'title' && titles.some(title => title.startsWith(norm(fact.value)) || norm(fact.value).startsWith(title)),
      titles.some(title => norm(titleLine).includes(title)),
    ),
  };
}

export function coverageReport(rows: ReadonlyArray<{ id: string; coverage?: MetadataCoverage }>): string[] {
  const lines: string[] = [];
  for (const kind of ['published', 'author', 'title'] as const) {
    const counted = rows.filter(row => row.coverage && row.coverage[kind] !== 'absent');
    const shown = counted.filter(row => row.coverage![kind] === 'shown').length;
    const folded = counted.filter(row => row.coverage![kind] === 'folded').length;
    const pct = ((100 * shown) / Math.max(1, counted.length)).toFixed(1);
    lines.push(
      `metadata ${kind}: the document section shows it on ${shown}/${counted.length} pages whose metadata has one (${pct}%); folded into its last line on ${folded}; missing on ${counted.length - shown - folded}`,
    );
    for (const row of counted.filter(row => row.coverage![kind] === 'missing').slice(0, 6)) {
      const said =
        kind === 'published'
          ? row.coverage!.reference.published
          : kind === 'author'
            ? row.coverage!.reference.authors
            : row.coverage!.reference.titles;
      lines.push(`  missing ${row.id.slice(0, 12)}: ${JSON.stringify(said.slice(0, 3).map(value => value.slice(0, 60)))}`);
    }
  }
  return lines;
}
