import { z } from 'zod';

/**
 * What a page says about itself — its title, canonical address, language, site name, authors, published and
 * modified times — from its meta tags, its JSON-LD (@graph and arrays included), microdata and <time datetime>
 * elements, read in the page by one function that only reads. Each fact keeps where it came from (`source` and
 * `key`) so a read of it can be recorded like any other, and read again by the same key.
 */

/** In the order a reader asks for them: the page state's document section numbers its lines in this order. */
export const DOCUMENT_FIELDS = ['title', 'site_name', 'author', 'published', 'modified', 'time', 'language', 'canonical'] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];

const documentFactSchema = z.object({
  field: z.enum(DOCUMENT_FIELDS),
  value: z.string(),
  source: z.enum(['meta', 'json-ld', 'dom']),
  /** Where exactly: "og:site_name", "@graph[1].author[0].name", "time in main". */
  key: z.string(),
  /** For a <time>: the text it shows beside its datetime. */
  shown: z.string().optional(),
});
export type DocumentFact = z.infer<typeof documentFactSchema>;

export const documentFactsSchema = z.object({
  facts: z.array(documentFactSchema),
  /** Characters of text in the document's body (scripts and styles aside), so an empty tree can be told from an empty page. */
  bodyTextChars: z.number(),
});
export type DocumentFacts = z.infer<typeof documentFactsSchema>;

export const MAX_FACT_CHARS = 160;

/** Runs in the page (see evaluateInPage). Reads only. */
export function collectDocumentFacts(options: { maxChars: number }): DocumentFacts {
  const facts: DocumentFact[] = [];
  const clip = (value: string) => value.replace(/\s+/g, ' ').trim().slice(0, options.maxChars);
  const add = (field: DocumentFact['field'], value: unknown, source: DocumentFact['source'], key: string, shown?: string) => {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = clip(String(value));
    if (!text || facts.some(fact => fact.field === field && fact.source === source && fact.key === key)) return;
    facts.push({ field, value: text, source, key, ...(shown ? { shown: clip(shown) } : {}) });
  };

  const META: Array<[DocumentFact['field'], string[]]> = [
    ['title', ['og:title', 'twitter:title', 'dc.title']],
    ['site_name', ['og:site_name', 'application-name']],
    ['author', ['author', 'article:author', 'dc.creator', 'citation_author']],
    [
      'published',
      ['article:published_time', 'og:published_time', 'datePublished', 'dc.date.issued', 'dc.date', 'citation_publication_date', 'date', 'pubdate'],
    ],
    ['modified', ['article:modified_time', 'og:updated_time', 'dateModified', 'dc.date.modified', 'last-modified']],
    ['canonical', ['og:url']],
    ['language', ['og:locale', 'content-language', 'dc.language']],
  ];
  const metas = Array.from(document.querySelectorAll('meta[content]'));
  for (const [field, names] of META) {
    for (const name of names) {
      for (const meta of metas) {
        const key =
          meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('itemprop') ?? meta.getAttribute('http-equiv') ?? '';
        if (key.toLowerCase() === name.toLowerCase()) add(field, meta.getAttribute('content'), 'meta', key);
      }
    }
  }
  add('title', document.title, 'meta', 'title');
  const canonical = document.querySelector('link[rel~="canonical"][href]') as HTMLLinkElement | null;
  if (canonical) add('canonical', canonical.href, 'meta', 'link rel=canonical');
  add('language', document.documentElement.getAttribute('lang') ?? '', 'meta', 'html lang');

  const ARTICLE_TYPES = /Article|Posting|Report|WebPage|NewsArticle|BlogPosting|CreativeWork|Review|Recipe/i;
  const nameOf = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object' && 'name' in value && typeof (value as { name: unknown }).name === 'string')
      return (value as { name: string }).name;
    return undefined;
  };
  const people = (value: unknown, key: string) => {
    const list = Array.isArray(value) ? value : [value];
    list.slice(0, 4).forEach((person, index) => {
      const name = nameOf(person);
      const suffix = typeof person === 'string' ? '' : '.name';
      if (name) add('author', name, 'json-ld', `${key}${Array.isArray(value) ? `[${index}]` : ''}${suffix}`);
    });
  };
  const visitNode = (node: unknown, path: string, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 3) return;
    if (Array.isArray(node)) {
      node.slice(0, 20).forEach((item, index) => visitNode(item, `${path}[${index}]`, depth + 1));
      return;
    }
    const item = node as Record<string, unknown>;
    const prefix = path ? `${path}.` : '';
    if (Array.isArray(item['@graph'])) visitNode(item['@graph'], `${prefix}@graph`, depth + 1);
    const type = ([] as unknown[]).concat(item['@type'] ?? []).join(' ');
    if (/WebSite/i.test(type)) add('site_name', item.name, 'json-ld', `${prefix}name`);
    if (!ARTICLE_TYPES.test(type) && !item.headline && !item.datePublished) return;
    add('title', item.headline, 'json-ld', `${prefix}headline`);
    add('published', item.datePublished, 'json-ld', `${prefix}datePublished`);
    add('modified', item.dateModified, 'json-ld', `${prefix}dateModified`);
    if (item.author) people(item.author, `${prefix}author`);
    const publisher = nameOf(item.publisher);
    if (publisher) add('site_name', publisher, 'json-ld', `${prefix}publisher${typeof item.publisher === 'string' ? '' : '.name'}`);
    if (item.isPartOf && typeof item.isPartOf === 'object') {
      const part = nameOf(item.isPartOf);
      if (part) add('site_name', part, 'json-ld', `${prefix}isPartOf.name`);
    }
  };
  Array.from(document.querySelectorAll('script[type="application/ld+json"]'))
    .slice(0, 8)
    .forEach((script, index) => {
      try {
        visitNode(JSON.parse(script.textContent ?? ''), `[${index}]`, 0);
      } catch {
        // A block that is not JSON says nothing.
      }
    });

  for (const [field, prop] of [
    ['published', 'datePublished'],
    ['modified', 'dateModified'],
    ['author', 'author'],
  ] as const) {
    const element = document.querySelector(`[itemprop="${prop}"]:not(meta)`);
    if (!element) continue;
    const value = element.getAttribute('datetime') ?? element.getAttribute('content') ?? element.textContent ?? '';
    add(field, value, 'dom', `itemprop=${prop}`);
  }

  const scope = document.querySelector('main, article, [role=main]') ?? document.body;
  Array.from(scope?.querySelectorAll('time[datetime]') ?? [])
    .slice(0, 3)
    .forEach((time, index) => {
      const shown = (time.textContent ?? '').replace(/\s+/g, ' ').trim();
      add('time', time.getAttribute('datetime'), 'dom', `time[datetime] ${index + 1}`, shown);
    });

  let bodyTextChars = 0;
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: node =>
        /^(script|style|noscript|template)$/i.test(node.parentElement?.localName ?? '') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let seen = 0; walker.nextNode() && seen < 50_000; seen++) bodyTextChars += (walker.currentNode.textContent ?? '').trim().length;
  }
  return { facts, bodyTextChars };
}
