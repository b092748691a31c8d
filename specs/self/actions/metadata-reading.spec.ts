import type { Provenance } from '../../../agent/evidence/result-schema';
import { ARTICLE_TRUTH } from '../../../fixtures/sites/widgets/cases/articles';
import { expect, test, WIDGETS } from './harness';

/**
 * Every family of metadata a publisher documents reaches the document section, and each line is read again by its
 * source and key: JSON-LD in CDATA and through @id references, Parse.ly's tags and JSON, Dublin Core, article:author as
 * an address, microdata beside a comment's own, a meta no family defines. Dates on bylines are read as written; a list
 * is counted with what was counted.
 */

const provenanceOf = (result: { effects?: { extracted?: { provenance: Provenance } } }) => result.effects?.extracted?.provenance as Provenance;
const valueOf = (result: { effects?: { extracted?: { value: unknown } } }) => result.effects?.extracted?.value;

/** The section's lines as printed on the first look: `[d3] author "Nora Quist" (json-ld author.name)`. */
function sectionLines(text: string): string[] {
  return text.split('\n').filter(line => /^ \[d\d+\] /.test(line));
}

const FAMILIES: Array<[slug: string, lines: string[], reads: Array<[field: string, source: Provenance['source'], key: string, value: string]>]> = [
  [
    'article-cdata',
    ['author "Nora Quist" (json-ld author.name)', 'published "2017-10-30T07:15:00+01:00" (json-ld datePublished)'],
    [
      ['author', 'json-ld', '[0].author.name', 'Nora Quist'],
      ['published', 'json-ld', '[0].datePublished', '2017-10-30'],
    ],
  ],
  [
    'article-graph-ids',
    ['site_name "Lab Garden Weekly" (json-ld publisher.@id)', 'author "Theo Brandvold" (json-ld author.@id)'],
    [['author', 'json-ld', '[0].@graph[3].author.@id [0].@graph[4].name', 'Theo Brandvold']],
  ],
  [
    'article-parsely',
    ['author "Ines Vale" (parsely-author)', 'author "Oskar Lind" (parsely-author 2)', 'published "2018-07-21T18:40:00Z" (parsely-pub-date)'],
    [
      ['author', 'meta', 'parsely-author', 'Ines Vale'],
      ['published', 'meta', 'parsely-pub-date', '2018-07-21'],
    ],
  ],
  [
    'article-parsely-page',
    ['author "Petra Holm" (parsely-page.authors[0])', 'published "2016-02-11T09:30:00Z" (parsely-page.pub_date)'],
    [['author', 'meta', 'parsely-page.authors[0]', 'Petra Holm']],
  ],
  [
    'article-dublin-core',
    ['author "Maja Ek" (DC.creator)', 'published "2014-06-02" (DC.date)', 'modified "2014-06-05" (dcterms:modified)'],
    [['author', 'meta', 'DC.creator', 'Maja Ek']],
  ],
  ['article-og-author-url', ['author → https://people.lab.example/ruth-okoro (article:author)'], []],
  [
    'article-microdata',
    ['author "Sanne de Wit" (itemprop=author)', 'published "2012-09-14T08:00:00+02:00" (datePublished)'],
    [['author', 'dom', 'itemprop=author', 'Sanne de Wit']],
  ],
  [
    'article-unknown-meta',
    ['other "Ivo Brandt" (newsroom.writer)', 'other "2016-09-12 08:30" (newsroom.first_published)'],
    [['other', 'meta', 'newsroom.writer', 'Ivo Brandt']],
  ],
];

test.describe('what a page says about itself, in every documented family', () => {
  test('each family reaches the document section, and each line is read again by its source and key', async ({ harness }) => {
    for (const [slug, expected, reads] of FAMILIES) {
      await harness.ok('goto', { url: `${WIDGETS}/${slug}` });
      await harness.look();
      const lines = sectionLines(harness.observation().text).map(line => line.replace(/^ \[d\d+\] /, ''));
      for (const line of expected) expect(lines, slug).toContain(line);
      // A comment's author inside the article's microdata is not the article's.
      expect(lines.join('\n'), slug).not.toContain('Kees Bol');
      for (const [field, source, key, value] of reads) {
        const line = harness.observation().document.find(fact => fact.source === source && fact.key === key);
        expect(line, `${slug}: ${source} ${key}`).toBeDefined();
        const read = await harness.ok('extract', { field, target: line!.ref, ...(field === 'published' ? { type: 'date' } : {}) });
        expect(valueOf(read), slug).toBe(value);
        expect(provenanceOf(read), slug).toMatchObject({ source, key });
      }
    }
  });

  test("a recipe's read finds what the page state showed; a key the page does not hold says where the page does say things", async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-cdata` });
    const fromCdata = await harness.ok('extract', { field: 'author', target: { document: 'json-ld', key: '[0].author.name' } });
    expect(valueOf(fromCdata)).toBe(ARTICLE_TRUTH['article-cdata']!.author);

    await harness.ok('goto', { url: `${WIDGETS}/article-de` });
    const missing = await harness.act('extract', { field: 'author', target: { document: 'json-ld', key: '[0].author.name' } });
    expect(missing.success).toBe(false);
    expect(missing.error).toContain('the page says no author at json-ld [0].author.name (its json-ld says ');
    expect(missing.error).toContain('author at [0].@graph[1].author[0].name');
  });
});

test.describe('what a forgiving reader mends, and what is no date', () => {
  test("a JSON-LD block with a trailing comma or a raw line break is read; the zero time a CMS writes for 'no date' is none", async ({ harness }) => {
    await harness.open(
      'mended-json-ld',
      `<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Quay lights\nrepaired", "author": {"name": "Ola Berg"}, "keywords": ["quay", ],}</script>
<script type="application/ld+json">{"@type": "WebPage", "datePublished": "0001-01-01T00:00:00Z"}</script><h1>Quay lights repaired</h1>`,
    );
    await harness.look();
    const lines = sectionLines(harness.observation().text).join('\n');
    expect(lines).toContain('author "Ola Berg" (json-ld author.name)');
    expect(lines).not.toContain('0001-01-01');
  });
});

test.describe('dates on a byline, read as written', () => {
  test('a weekday between the parts, dots on an English page, a Chinese date on a page without a language, no year at all', async ({ harness }) => {
    for (const [slug, reading] of [
      ['article-weekday', '2014-03-14 09:05 as written'],
      ['article-dayfirst', 'read as day/month (written with dots, the day first)'],
      ['article-cjk', '2016-03-05 14:20 as written'],
      ['article-no-year', 'the year is not shown: month and day only'],
    ] as const) {
      await harness.ok('goto', { url: `${WIDGETS}/${slug}` });
      const read = await harness.ok('extract', { field: 'published', target: 'css=.dateline', type: 'date' });
      expect(valueOf(read), slug).toBe(ARTICLE_TRUTH[slug]!.published);
      expect(provenanceOf(read).reading, slug).toContain(reading);
    }
  });
});

test.describe('a date without its year beside its own timestamp', () => {
  test("the timestamp gives the year when it is that day; another day's timestamp gives none", async ({ harness }) => {
    await harness.open(
      'yearless-stamped',
      '<p class="same">Posted <time datetime="2013-12-28T00:28:00+01:00">Dec 28</time></p><p class="other">Posted <time datetime="2013-12-30T10:00:00Z">Dec 28</time></p>',
    );
    const same = await harness.ok('extract', { field: 'published', target: 'css=.same time', type: 'date' });
    expect(valueOf(same)).toBe('2013-12-28');
    expect(provenanceOf(same).reading).toBe('"Dec 28" shows no year: the element\'s own timestamp "2013-12-28T00:28:00+01:00"');
    const other = await harness.ok('extract', { field: 'published', target: 'css=.other time', type: 'date' });
    expect(valueOf(other)).toBe('--12-28');
    expect(provenanceOf(other).reading).toBe('the year is not shown: month and day only');
  });
});

test.describe('counts with what was counted', () => {
  test("a list's items, a table's data rows, a locator's matches, a list of refs — each counted element recorded", async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/revision-history` });
    await harness.look();
    const list = await harness.ok('extract', { field: 'revisions', target: harness.ref('list', 'Revisions'), count: true });
    expect(valueOf(list)).toBe(7);
    const parts = provenanceOf(list).parts!;
    expect(parts).toHaveLength(7);
    expect(parts[0]).toEqual({
      locator: 'css=#history > li:nth-of-type(1)',
      preview: '2023-11-02 09:14 Ada Fixed the dates in the timeline compare',
    });
    expect(parts[6]!.locator).toBe('css=#history > li:nth-of-type(7)');
    expect(provenanceOf(list).rule).toMatch(/^count of the items of \[e\d+\] list "Revisions"$/);

    const rows = await harness.ok('extract', { field: 'releases', target: harness.ref('table', 'Releases'), count: true });
    expect(valueOf(rows)).toBe(5);
    expect(provenanceOf(rows).parts!.map(part => part.preview)).toEqual([
      '2.4.0 2024-02-01',
      '2.3.1 2023-12-11',
      '2.3.0 2023-11-20',
      '2.2.0 2023-09-05',
      '2.1.0 2023-06-30',
    ]);
    expect(provenanceOf(rows).parts![0]!.locator).toMatch(/^css=.*tbody > tr:nth-of-type\(1\)$/);

    const matches = await harness.ok('extract', { field: 'by_ada', target: 'css=#history li:has(a[href="/users/ada"])', count: true });
    expect(valueOf(matches)).toBe(3);

    const [first, second] = [harness.ref('link', '2023-11-02 09:14'), harness.ref('link', '2023-10-28 17:40')];
    const listed = await harness.ok('extract', { field: 'picked', target: `${first} ${second}`, count: true });
    expect(valueOf(listed)).toBe(2);
    expect(provenanceOf(listed).parts!.map(part => part.ref)).toEqual([first, second]);

    const none = await harness.ok('extract', { field: 'none', target: 'css=#history li.deleted', count: true });
    expect(valueOf(none)).toBe(0);
    expect(provenanceOf(none).rule).toBe('count of the elements css=#history li.deleted matches (none)');
  });
});
