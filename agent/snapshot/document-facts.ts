import { z } from 'zod';

/**
 * What a page says about itself — its title, canonical address, language, site name, authors, published and
 * modified times — read in the page by one function that only reads, from every family of metadata its publisher
 * documents: HTML meta (author, date), Open Graph and its article/book extensions, Twitter cards (their labelled
 * data too), Dublin Core (DC./dcterms., as meta names or RDFa properties), Parse.ly (its repeated tags and its
 * parsely-page JSON), Highwire/Scholar citation tags, schema.org JSON-LD (@graph, arrays, @id references, blocks
 * wrapped in CDATA or comments) and microdata, rel=author links and <time datetime> elements. Any other meta whose
 * name looks like an author, a date or a title is kept as `other`, so nothing a page says is dropped. Each fact keeps
 * where it came from (`source` and `key`) so a read of it can be recorded like any other, and read again by the same
 * key (an exported spec ships this file and reads exactly as bwa does).
 */

/** In the order a reader asks for them: the page state's document section numbers its lines in this order. */
export const DOCUMENT_FIELDS = ['title', 'site_name', 'author', 'published', 'modified', 'time', 'other', 'language', 'canonical'] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];

const documentFactSchema = z.object({
  field: z.enum(DOCUMENT_FIELDS),
  value: z.string(),
  source: z.enum(['meta', 'json-ld', 'dom']),
  /** Where exactly: "og:site_name", "[0].@graph[1].author[0].name", "itemprop=author 2", "time[datetime] 1". */
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

/** Runs in the page (see evaluateInPage), and in exported specs through Playwright's evaluate: self-contained. Reads only. */
export function collectDocumentFacts(options: { maxChars: number }): DocumentFacts {
  type Field = DocumentFact['field'];
  const facts: DocumentFact[] = [];
  const clip = (value: string) => value.replace(/\s+/g, ' ').trim().slice(0, options.maxChars);
  const add = (field: Field, value: unknown, source: DocumentFact['source'], key: string, shown?: string) => {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = clip(String(value));
    if (!text || facts.some(fact => fact.source === source && fact.key === key)) return;
    // The zero time a CMS writes for "no date" ("0001-01-01T00:00:00Z") is no date.
    if ((field === 'published' || field === 'modified' || field === 'time') && /^0{3}[01]-/.test(text)) return;
    facts.push({ field, value: text, source, key, ...(shown ? { shown: clip(shown) } : {}) });
  };

  // Meta tags of the documented families, most telling first within a field. Keys compare in lower case, and an
  // RDFa property "dc:creator" is the meta name "DC.creator".
  const FAMILIES: Array<[Field, string[]]> = [
    ['title', ['og:title', 'twitter:title', 'dc.title', 'dcterms.title', 'parsely-title', 'citation_title', 'headline']],
    ['site_name', ['og:site_name', 'application-name', 'apple-mobile-web-app-title', 'dc.publisher', 'dcterms.publisher', 'citation_publisher']],
    ['author', ['author', 'article:author', 'book:author', 'dc.creator', 'dcterms.creator', 'parsely-author', 'citation_author', 'twitter:creator']],
    [
      'published',
      [
        'article:published_time',
        'og:published_time',
        'datepublished',
        'dc.date.issued',
        'dcterms.issued',
        'dc.date',
        'dcterms.date',
        'dc.date.created',
        'dcterms.created',
        'datecreated',
        'parsely-pub-date',
        'citation_publication_date',
        'citation_online_date',
        'citation_date',
        'book:release_date',
        'date',
        'pubdate',
      ],
    ],
    ['modified', ['article:modified_time', 'og:updated_time', 'datemodified', 'dc.date.modified', 'dcterms.modified', 'last-modified']],
    ['canonical', ['og:url']],
    ['language', ['og:locale', 'content-language', 'dc.language', 'dcterms.language']],
  ];
  const metaKey = (meta: Element) =>
    meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('itemprop') ?? meta.getAttribute('http-equiv') ?? '';
  const normalizeKey = (key: string) =>
    key
      .trim()
      .toLowerCase()
      .replace(/^(dc|dcterms):/, '$1.');
  // A key given again (Open Graph's arrays: one article:author per author) is told apart by its place: "article:author 2".
  const seen = new Map<string, number>();
  const metas = Array.from(document.querySelectorAll('meta[content]')).map(meta => {
    const normal = normalizeKey(metaKey(meta));
    const occurrence = (seen.get(normal) ?? 0) + 1;
    seen.set(normal, occurrence);
    return { key: `${metaKey(meta)}${occurrence > 1 ? ` ${occurrence}` : ''}`, normal, content: meta.getAttribute('content') ?? '' };
  });
  const known = new Set(FAMILIES.flatMap(([, keys]) => keys));
  for (const [field, keys] of FAMILIES)
    for (const name of keys) for (const meta of metas) if (meta.normal === name) add(field, meta.content, 'meta', meta.key);

  // Parse.ly's older form: one meta holding JSON (title, pub_date, author or authors).
  const parsely = metas.find(meta => meta.normal === 'parsely-page');
  if (parsely) {
    try {
      const page = JSON.parse(parsely.content) as Record<string, unknown>;
      add('title', page.title, 'meta', `${parsely.key}.title`);
      add('published', page.pub_date, 'meta', `${parsely.key}.pub_date`);
      add('author', page.author, 'meta', `${parsely.key}.author`);
      if (Array.isArray(page.authors)) page.authors.slice(0, 6).forEach((name, i) => add('author', name, 'meta', `${parsely.key}.authors[${i}]`));
    } catch {
      // Content that is not JSON says nothing.
    }
  }

  const words = (text: string) =>
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const AUTHOR_WORDS = /^(author|authors|byline|byl|creator|creators|writer|writers|written|journalist|reporter)$/;
  const TITLE_WORDS = /^(title|headline)$/;
  const DATE_WORDS = /^(date|time|published|publish|publication|pubdate|issued|created|modified|updated|posted|timestamp|datetime)$/;
  const MEDIA_WORDS = /^(image|video|audio|app|tile|color)$/;
  const looksLikeDate = (value: string) => value.length <= 64 && /(^|\D)(1[6-9]|20)\d\d(\D|$)/.test(value);
  /** What a name that no family defines seems to hold, judged by its words and its value. */
  const kindOf = (name: string, value: string): 'author' | 'date' | 'title' | undefined => {
    const parts = words(name);
    if (parts.some(part => MEDIA_WORDS.test(part))) return undefined;
    if (parts.some(part => AUTHOR_WORDS.test(part)) && value.length <= 200 && /\p{L}/u.test(value)) return 'author';
    if (parts.some(part => DATE_WORDS.test(part)) && looksLikeDate(value)) return 'date';
    if (parts.some(part => TITLE_WORDS.test(part)) && value.length >= 3) return 'title';
    return undefined;
  };

  // Twitter's labelled data ("Written by" / a name): the label says what the value is.
  for (const label of metas) {
    const index = /^twitter:label(\d+)$/.exec(label.normal)?.[1];
    const data = index && metas.find(meta => meta.normal === `twitter:data${index}`);
    if (!data) continue;
    const kind = kindOf(label.content, data.content);
    if (kind === 'author') add('author', data.content, 'meta', data.key);
    else if (kind) add('other', data.content, 'meta', data.key);
  }

  add('title', document.title, 'meta', 'title');
  const canonical = document.querySelector('link[rel~="canonical"][href]') as HTMLLinkElement | null;
  if (canonical) add('canonical', canonical.href, 'meta', 'link rel=canonical');
  add('language', document.documentElement.getAttribute('lang') ?? '', 'meta', 'html lang');

  const ARTICLE_TYPES = /Article|Posting|Report|WebPage|CreativeWork|Review|Recipe|MediaObject|VideoObject|Blog/i;
  type Node = Record<string, unknown>;
  const isNode = (value: unknown): value is Node => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
  const typeOf = (node: Node) => ([] as unknown[]).concat(node['@type'] ?? []).join(' ');

  // JSON-LD as CMSs write it: wrapped in CDATA or an HTML comment, and with the slips a forgiving reader mends
  // (raw line breaks inside strings, trailing commas).
  const parseJsonLd = (text: string): unknown => {
    const unwrapped = text
      .trim()
      .replace(/^(?:\/\/|\/\*)?\s*<!\[CDATA\[\s*(?:\*\/)?/, '')
      .replace(/(?:\/\/|\/\*)?\s*\]\]>\s*(?:\*\/)?$/, '')
      .replace(/^<!--/, '')
      .replace(/-->$/, '');
    try {
      return JSON.parse(unwrapped);
    } catch {
      try {
        return JSON.parse(unwrapped.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1'));
      } catch {
        return undefined;
      }
    }
  };
  const byId = new Map<string, { node: Node; path: string }>();
  const index = (value: unknown, path: string, depth: number) => {
    if (depth > 8 || byId.size > 500) return;
    if (Array.isArray(value)) value.slice(0, 50).forEach((item, i) => index(item, `${path}[${i}]`, depth + 1));
    else if (isNode(value)) {
      // A node that only points at an @id is a reference: the node that says more is its definition.
      const id = value['@id'];
      const known = typeof id === 'string' ? byId.get(id) : undefined;
      if (typeof id === 'string' && (!known || Object.keys(known.node).length < Object.keys(value).length)) byId.set(id, { node: value, path });
      for (const [key, inner] of Object.entries(value)) if (inner && typeof inner === 'object') index(inner, `${path}.${key}`, depth + 1);
    }
  };
  /** The page's own items: the blocks, their arrays and @graph, and what they name as their main entity — not comments or related lists. */
  const items: Array<{ node: Node; path: string }> = [];
  const gather = (value: unknown, path: string, depth: number) => {
    if (depth > 4 || items.length > 40) return;
    if (Array.isArray(value)) value.slice(0, 20).forEach((item, i) => gather(item, `${path}[${i}]`, depth + 1));
    else if (isNode(value)) {
      items.push({ node: value, path });
      const prefix = path ? `${path}.` : '';
      if (Array.isArray(value['@graph'])) gather(value['@graph'], `${prefix}@graph`, depth + 1);
      for (const key of ['mainEntity', 'mainEntityOfPage'] as const)
        if (isNode(value[key]) && value[key]['@type']) gather(value[key], `${prefix}${key}`, depth + 1);
    }
  };
  Array.from(document.querySelectorAll('script[type*="ld+json" i]'))
    .slice(0, 12)
    .forEach((script, i) => {
      const parsed = parseJsonLd(script.textContent ?? '');
      index(parsed, `[${i}]`, 0);
      gather(parsed, `[${i}]`, 0);
    });
  /** A person or organisation as JSON-LD gives one: a name, a node with a name (or given and family names), or a reference by @id. */
  const nameOf = (value: unknown, key: string): { name: string; key: string } | undefined => {
    if (typeof value === 'string') return { name: value, key };
    if (!isNode(value)) return undefined;
    if (typeof value.name === 'string') return { name: value.name, key: `${key}.name` };
    const given = [value.givenName, value.familyName].filter(part => typeof part === 'string').join(' ');
    if (given) return { name: given, key: `${key}.givenName` };
    const target = typeof value['@id'] === 'string' ? byId.get(value['@id']) : undefined;
    if (target && target.node !== value) {
      const named = nameOf(target.node, target.path);
      if (named) return { name: named.name, key: `${key}.@id ${named.key}` };
    }
    return undefined;
  };
  const people = (value: unknown, key: string) => {
    const list = Array.isArray(value) ? value : [value];
    list.slice(0, 6).forEach((person, i) => {
      const named = nameOf(person, `${key}${Array.isArray(value) ? `[${i}]` : ''}`);
      if (named) add('author', named.name, 'json-ld', named.key);
    });
  };
  for (const { node, path } of items) {
    const prefix = path ? `${path}.` : '';
    const type = typeOf(node);
    if (/WebSite/i.test(type)) add('site_name', node.name, 'json-ld', `${prefix}name`);
    if (!ARTICLE_TYPES.test(type) && !node.headline && !node.datePublished) continue;
    add('title', node.headline, 'json-ld', `${prefix}headline`);
    for (const key of ['datePublished', 'dateCreated', 'uploadDate'] as const) add('published', node[key], 'json-ld', `${prefix}${key}`);
    add('modified', node.dateModified, 'json-ld', `${prefix}dateModified`);
    if (node.author) people(node.author, `${prefix}author`);
    if (node.creator) people(node.creator, `${prefix}creator`);
    for (const key of ['publisher', 'isPartOf'] as const) {
      const named = nameOf(node[key], `${prefix}${key}`);
      if (named && !/^https?:/i.test(named.name)) add('site_name', named.name, 'json-ld', named.key);
    }
    if (typeof node.inLanguage === 'string') add('language', node.inLanguage, 'json-ld', `${prefix}inLanguage`);
  }

  // Microdata: an itemprop of the article (not of a comment or a review inside it), its value where the spec puts it.
  const propValue = (element: Element): string => {
    if (element.hasAttribute('itemscope')) {
      const name = element.querySelector('[itemprop~="name"]');
      if (name) return propValue(name);
      const given = ['givenName', 'familyName'].map(prop => element.querySelector(`[itemprop~="${prop}"]`)?.textContent?.trim() ?? '');
      if (given.some(Boolean)) return given.filter(Boolean).join(' ');
    }
    return element.getAttribute('datetime') ?? element.getAttribute('content') ?? element.textContent ?? '';
  };
  const ofTheArticle = (element: Element) => {
    const owner = element.parentElement?.closest('[itemscope]');
    const type = owner?.getAttribute('itemtype') ?? '';
    return !type || ARTICLE_TYPES.test(type) || /WebSite|Organization/i.test(type);
  };
  for (const [field, prop, most] of [
    ['title', 'headline', 1],
    ['author', 'author', 3],
    ['author', 'creator', 2],
    ['published', 'datePublished', 1],
    ['published', 'dateCreated', 1],
    ['modified', 'dateModified', 1],
    ['site_name', 'publisher', 1],
  ] as const) {
    Array.from(document.querySelectorAll(`[itemprop~="${prop}"]:not(meta)`))
      .filter(ofTheArticle)
      .slice(0, most)
      .forEach((element, i) => add(field, propValue(element), 'dom', `itemprop=${prop}${i ? ` ${i + 1}` : ''}`));
  }

  // rel=author: the link to the author's page, its words the author's name.
  const relAuthors = Array.from(document.querySelectorAll('a[rel~="author"]'))
    .map(link => (link.textContent ?? '').replace(/\s+/g, ' ').trim())
    .filter(name => name.length >= 2 && name.length <= 80);
  [...new Set(relAuthors)].slice(0, 3).forEach((name, i) => add('author', name, 'dom', `a[rel=author] ${i + 1}`));

  const scope = document.querySelector('main, article, [role=main]') ?? document.body;
  Array.from(scope?.querySelectorAll('time[datetime]') ?? [])
    .slice(0, 3)
    .forEach((time, i) => {
      const shown = (time.textContent ?? '').replace(/\s+/g, ' ').trim();
      add('time', time.getAttribute('datetime'), 'dom', `time[datetime] ${i + 1}`, shown);
    });

  // Any other meta that looks like an author, a date or a title: shown as `other` with its name, never dropped —
  // dates first, then authors, then titles (the header's Title line already holds the page's title).
  const KINDS = ['date', 'author', 'title'];
  metas
    .filter(meta => !known.has(meta.normal) && !/^(twitter:(label|data)\d+|parsely-page)$/.test(meta.normal))
    .map(meta => ({ meta, rank: KINDS.indexOf(kindOf(meta.key, meta.content.trim()) ?? '') }))
    .filter(({ rank }) => rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, 6)
    .forEach(({ meta }) => add('other', meta.content, 'meta', meta.key));

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
