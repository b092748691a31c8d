import type { Provenance } from '../../../agent/evidence/result-schema';
import { DOCUMENT_SECTION_TOKENS } from '../../../agent/snapshot/document-section';
import { estimateTokens } from '../../../agent/snapshot/tokens';
import { expect, test, WIDGETS } from './harness';

/** Reads on the widget lab's article set: what the page says about itself, dates in its language, exact text. */

const provenanceOf = (result: { effects?: { extracted?: { provenance: Provenance } } }) => result.effects?.extracted?.provenance as Provenance;

test.describe('extract reads like an auditor', () => {
  test('a document line is read again by its source and key: meta and JSON-LD inside @graph and arrays', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-de` });
    await harness.look();
    const published = await harness.ok('extract', { field: 'published', target: harness.ref('document', 'published'), type: 'date' });
    expect(published.effects?.extracted?.value).toBe('2019-01-03');
    expect(provenanceOf(published)).toMatchObject({
      source: 'json-ld',
      key: '[0].@graph[1].datePublished',
      reading: '2019-01-03 14:05 +01:00 as written',
    });
    const [, second] = [...harness.env().elements.values()].filter(e => e.role === 'document' && e.name === 'author');
    const author = await harness.ok('extract', { field: 'coauthor', target: second!.ref });
    expect(author.effects?.extracted?.value).toBe('Mia Schulz');
    expect(provenanceOf(author)).toMatchObject({ source: 'json-ld', key: '[0].@graph[1].author[1].name' });

    await harness.ok('goto', { url: `${WIDGETS}/article-fr` });
    await harness.look();
    const site = await harness.ok('extract', { field: 'site_name', target: harness.ref('document', 'site_name') });
    expect(site.effects?.extracted?.value).toBe('Le Quotidien du Lab');
    expect(provenanceOf(site)).toMatchObject({ source: 'meta', key: 'og:site_name', locator: 'meta og:site_name' });
  });

  test('a busy document section keeps to its budget; a value shortened or folded out of it is read in full', async ({ harness }) => {
    const site = 'The Northern Valley Evening Chronicle and Weekly Farming Gazette';
    const canonical = `${WIDGETS}/archive/2019/11/20/regional-council-approves-the-long-debated-river-crossing-after-years-of-delay/`;
    const meta = (key: string, content: string) => `<meta property="${key}" content="${content}">`;
    await harness.open(
      'busy-document',
      [
        meta('og:title', 'busy-document'),
        meta('og:site_name', site),
        meta('og:locale', 'en_GB'),
        meta('og:url', canonical),
        meta('article:published_time', '2019-11-20T06:35:39Z'),
        meta('article:modified_time', '2019-11-21T09:10:00Z'),
        `<script type="application/ld+json">${JSON.stringify({
          '@type': 'NewsArticle',
          datePublished: '2019-11-20T06:39:53Z',
          author: [{ name: 'Margaret Oyelaran-Whitfield' }, { name: 'Thomas van der Berghe' }, { name: 'Ines Castellanos Ruiz' }],
        })}</script>`,
        '<main><h1>Council approves the crossing</h1>',
        '<p><time datetime="2019-11-20T06:35:39Z">1:35 am EST, Wednesday, November 20, 2019</time>',
        '· updated <time datetime="2019-11-21T09:10:00Z">Thursday, November 21, 2019 at 4:10 am EST</time></p>',
        '<p>The regional council approved the river crossing on Tuesday.</p></main>',
      ].join('\n'),
    );
    await harness.look();
    const lines = harness.observation().text.split('\n');
    const start = lines.indexOf('[d0] document:');
    const section = [lines[start]!, ...lines.slice(start + 1).filter(line => /^ (\[d\d+\]|\(also: )/.test(line))];
    expect(estimateTokens(section.join('\n'))).toBeLessThanOrEqual(DOCUMENT_SECTION_TOKENS);
    expect(section).toContain(' [d1] title "busy-document" (og:title)');
    const folded = /^ \(also: (.*)\)$/.exec(section.at(-1)!)?.[1];
    expect(folded, section.join('\n')).toContain('canonical');
    const canonicalRef = /\[(d\d+)\] canonical/.exec(folded!)![1]!;
    const read = await harness.ok('extract', { field: 'canonical', target: canonicalRef });
    expect(read.effects?.extracted?.value).toBe(canonical);
    expect(provenanceOf(read)).toMatchObject({ source: 'meta', key: 'og:url' });
    const siteLine = section.find(line => line.includes(' site_name '))!;
    expect(siteLine).toContain('(+');
    const siteRead = await harness.ok('extract', { field: 'site_name', target: /\[(d\d+)\]/.exec(siteLine)![1] });
    expect(siteRead.effects?.extracted?.value).toBe(site);
    // Asked for, the section prints every line: nothing folded.
    await harness.ok('expand', { target: 'd0' });
    await harness.look();
    const asked = harness.observation().text;
    expect(asked).not.toContain(' (also: ');
    expect(asked).toContain(` [${canonicalRef}] canonical `);
  });

  test('several document lines are read as a list with all; a list mixing them with elements is refused', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-de` });
    await harness.look();
    const authors = [...harness.env().elements.values()].filter(e => e.role === 'document' && e.name === 'author').map(e => e.ref);
    expect(authors).toHaveLength(2);
    const both = await harness.ok('extract', { field: 'authors', target: authors.join(' '), all: true });
    expect(both.effects?.extracted?.value).toEqual(['Jonas Weber', 'Mia Schulz']);
    expect(provenanceOf(both)).toMatchObject({ source: 'json-ld', locator: expect.stringContaining(' + ') });
    expect(provenanceOf(both).parts?.map(part => part.ref)).toEqual(authors);
    expect(provenanceOf(both).parts?.map(part => part.locator)).toEqual([
      'json-ld [0].@graph[1].author[0].name',
      'json-ld [0].@graph[1].author[1].name',
    ]);

    const heading = harness.ref('heading', /./);
    const mixed = await harness.act('extract', { field: 'authors', target: `${authors[0]} ${heading}`, all: true });
    expect(mixed.success).toBe(false);
    expect(mixed.error).toContain(`mixes lines of the document section (${authors[0]}) with elements`);
  });

  test('a <time> whose words are not its datetime keeps both in the record', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-en-updated` });
    await harness.look();
    expect(harness.observation().text).toContain('time "2018-12-07T16:30:00-05:00" shows "Dec. 6" (<time>)');
    const time = await harness.ok('extract', { field: 'updated', target: harness.ref('document', 'time'), type: 'date' });
    expect(time.effects?.extracted?.value).toBe('2018-12-07');
    expect(provenanceOf(time).reading).toContain('the element shows "Dec. 6"');
  });

  test('dates in the page language, with the words read, the time and zone as written', async ({ harness }) => {
    const cases: Array<[string, string, string, string]> = [
      ['article-fr', '.byline', '2015-04-30', '30 avril 2015 à 10h25'],
      ['article-de', '.byline', '2019-01-03', '3. Januar 2019, 14:05 Uhr'],
      ['article-es', '.byline', '2019-01-03', '3 de enero de 2019'],
      ['article-ja', '.byline', '2019-01-03', '2019年1月3日 14時05分'],
      ['article-it', '.byline', '2019-01-03', '3 gennaio 2019'],
      ['article-pt', '[itemprop=datePublished]', '2010-10-22', '22 de outubro de 2010 às 20:13'],
      ['article-en-zone', '.dateline', '2019-01-03', 'Thu 3 Jan 2019 02.00 EST'],
    ];
    for (const [slug, selector, date, from] of cases) {
      await harness.ok('goto', { url: `${WIDGETS}/${slug}` });
      const read = await harness.ok('extract', { field: 'published', target: `css=${selector}`, type: 'date' });
      expect(read.effects?.extracted?.value, slug).toBe(date);
      expect(provenanceOf(read).text ?? provenanceOf(read).preview, slug).toContain(from);
    }
    await harness.ok('goto', { url: `${WIDGETS}/article-en-zone` });
    const zoned = await harness.ok('extract', { field: 'published', target: 'css=.dateline', type: 'date' });
    expect(provenanceOf(zoned).reading).toBe('2019-01-03 02:00 -05:00 as written');
  });

  test("a relative date counts from the element's own timestamp", async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-en-relative` });
    const read = await harness.ok('extract', { field: 'published', target: 'css=.byline time', type: 'date' });
    expect(read.effects?.extracted?.value).toBe('2019-01-03');
    expect(provenanceOf(read).reading).toBe('"2 hours ago" is relative: the element\'s own timestamp "2019-01-03T07:00:00Z"');
  });

  test("relative dates in the page language count from the element's own timestamp, or from the time of reading", async ({ harness }) => {
    await harness.open(
      'relative-es',
      '<article lang="es"><h1>Nuevo puente</h1><p class="a"><time datetime="2019-01-03T07:00:00Z">hace 2 horas</time></p><p class="b">Actualizado hace 3 días</p></article>',
    );
    const stamped = await harness.ok('extract', { field: 'published', target: 'css=.a time', type: 'date' });
    expect(stamped.effects?.extracted?.value).toBe('2019-01-03');
    expect(provenanceOf(stamped).reading).toBe('"hace 2 horas" is relative: the element\'s own timestamp "2019-01-03T07:00:00Z"');
    const before = Date.now();
    const unstamped = await harness.ok('extract', { field: 'updated', target: 'css=.b', type: 'date' });
    const threeDaysAgo = (at: number) => new Date(at - 3 * 86_400_000).toISOString().slice(0, 10);
    expect([threeDaysAgo(before), threeDaysAgo(Date.now())]).toContain(unstamped.effects?.extracted?.value);
    expect(provenanceOf(unstamped).reading).toContain('relative: counted from the time of reading');
  });

  test("numbers with the page's separators", async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-de` });
    const de = await harness.ok('extract', { field: 'steel', target: 'css=article p:last-child', type: 'number' });
    expect(de.effects?.extracted?.value).toBe(1234.5);
    await harness.ok('goto', { url: `${WIDGETS}/article-en-relative` });
    const en = await harness.ok('extract', { field: 'metres', target: 'css=article p:last-child', type: 'number' });
    expect(en.effects?.extracted?.value).toBe(1234.5);
    expect(provenanceOf(en).text).toBe('1,234.5');
  });

  test('text is joined as the page shows it: a tag link beside a title is never glued to it, and one that repeats its words is no part of it', async ({
    harness,
  }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-release` });
    const title = await harness.ok('extract', { field: 'title', target: 'css=h1' });
    expect(title.effects?.extracted?.value).toBe('Release 0.6.0');
    expect(title.description).toContain('[the control "0.6.0" beside it repeats its words: left out as an element of its own]');
    // The record keeps what the element showed, tag and all.
    expect(provenanceOf(title).preview).toBe('Release 0.6.0 0.6.0');
  });

  test('a selector list records the alternative that matched; a ref list, each element with its text', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-fr` });
    const read = await harness.ok('extract', { field: 'headline', target: 'css=.missing-title, article h1, h2' });
    expect(provenanceOf(read)).toMatchObject({ locator: 'css=article h1', preview: 'Les abeilles reviennent sur les toits de la ville' });
    await harness.look();
    const refs = [harness.ref('heading', /abeilles/), harness.ref('link', 'Claire Martin')];
    const both = await harness.ok('extract', { field: 'parts', target: refs.join(' '), all: true });
    expect(provenanceOf(both).parts).toEqual([
      expect.objectContaining({ ref: refs[0], preview: 'Les abeilles reviennent sur les toits de la ville' }),
      expect.objectContaining({ ref: refs[1], preview: 'Claire Martin' }),
    ]);
  });

  test('missing "null" covers an absent element, an empty text and a pattern that does not match', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-fr` });
    const failed = await harness.act('extract', { field: 'issue', target: 'css=article h1', pattern: 'No\\. (\\d+)' });
    expect(failed).toMatchObject({ success: false });
    expect(failed.error).toContain('does not match');
    const unmatched = await harness.ok('extract', { field: 'issue', target: 'css=article h1', pattern: 'No\\. (\\d+)', missing: 'null' });
    expect(unmatched.effects?.extracted?.value).toBeNull();
    expect(unmatched.description).toContain('(no match → null)');
    const absent = await harness.ok('extract', { field: 'issue', target: 'css=.nowhere', missing: 'null' });
    expect(absent.effects?.extracted?.value).toBeNull();
    expect(absent.description).toBe('issue = null (element not on the page)');

    await harness.open('empty-text', '<h1>Issue</h1><p class="issue">   </p>');
    const emptyFails = await harness.act('extract', { field: 'issue', target: 'css=p.issue' });
    expect(emptyFails).toMatchObject({ success: false });
    const empty = await harness.ok('extract', { field: 'issue', target: 'css=p.issue', missing: 'null' });
    expect(empty.effects?.extracted?.value).toBeNull();
    expect(empty.description).toContain('(empty → null)');
  });

  test('a document line follows extract\'s value rule: with missing "null" a text not of the type or not matching is null, else a failure', async ({
    harness,
  }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-de` });
    await harness.look();
    const published = harness.ref('document', 'published');
    const notBoolean = await harness.act('extract', { field: 'flag', target: published, type: 'boolean' });
    expect(notBoolean).toMatchObject({
      success: false,
      error: expect.stringMatching(/^"flag": ".+" is not a boolean.* \(json-ld \[0\]\.@graph\[1\]\.datePublished\)$/),
    });
    const nullFlag = await harness.ok('extract', { field: 'flag', target: published, type: 'boolean', missing: 'null' });
    expect(nullFlag.effects?.extracted?.value).toBeNull();
    expect(nullFlag.description).toBe(`flag = null ([${published}] published, json-ld [0].@graph[1].datePublished: not readable → null)`);
    const unmatched = await harness.ok('extract', { field: 'year', target: published, pattern: '^(\\d{2})$', missing: 'null' });
    expect(unmatched.effects?.extracted?.value).toBeNull();
    expect(provenanceOf(unmatched)).toMatchObject({ source: 'json-ld', key: '[0].@graph[1].datePublished' });
  });

  test('missing "null" is for an element that is not there: several matches or a selector the page cannot parse stay failures', async ({
    harness,
  }) => {
    await harness.open('two-headings', '<h1>Daily Lab</h1><h1>Harbour board publishes the dredging survey</h1>');
    const several = await harness.act('extract', { field: 'headline', target: { css: 'h1' }, missing: 'null' });
    expect(several).toMatchObject({ success: false, error: expect.stringContaining('css=h1 matches 2 elements') });
    const unparsable = await harness.act('extract', { field: 'headline', target: 'css=h1 >> >> p', missing: 'null' });
    expect(unparsable).toMatchObject({ success: false, error: expect.stringMatching(/^css=h1 >> >> p: /) });
    const past = await harness.act('extract', { field: 'headline', target: { css: 'h1', nth: 2 }, missing: 'null' });
    expect(past).toMatchObject({ success: false, error: expect.stringContaining('"nth": 2 picks past the 2 elements') });
  });

  test('an avatar and the name beside it are one line; the avatar read alone gives its name, said so', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-avatar` });
    await harness.look();
    const line = harness
      .observation()
      .text.split('\n')
      .find(l => l.includes('/people/ada'))!;
    const [, named, avatar] = /\[(e\d+)\] link "Ada Lovelace" → \/people\/ada \(also \[(e\d+)\]\)/.exec(line) ?? [];
    expect(named && avatar, line).toBeTruthy();
    expect((await harness.ok('extract', { field: 'author', target: named })).effects?.extracted?.value).toBe('Ada Lovelace');
    const byAvatar = await harness.ok('extract', { field: 'author', target: avatar });
    expect(byAvatar.effects?.extracted?.value).toBe('Ada Lovelace');
    expect(provenanceOf(byAvatar).reading).toBe("no text of its own: its accessible name (the picture's alt)");
  });

  test('an empty tree says why, and find and extract still reach the hidden text', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/article-hidden` });
    await harness.look();
    expect(harness.observation().text).toContain('hidden by CSS (display: none on <div class="js-pending">)');
    const found = await harness.ok('find', { text: 'mountain pass' });
    const ref = /\[(t\d+)\] heading "Storm closes the mountain pass"/.exec(found.description)?.[1];
    expect(ref, found.description).toBeTruthy();
    const read = await harness.ok('extract', { field: 'headline', target: ref });
    expect(read.effects?.extracted?.value).toBe('Storm closes the mountain pass');
  });

  test('text inside a closed shadow root: the page state says so and find still finds it', async ({ harness }) => {
    await harness.open(
      'closed-shadow',
      `<report-view style="display:block;min-height:400px"></report-view>
<script>customElements.define('report-view', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'closed' }).innerHTML =
      '<h1>Quarterly report</h1><p>Revenue grew 12 percent in the third quarter, led by subscriptions.</p>';
  }
});</script>`,
    );
    await harness.look();
    const text = harness.observation().text;
    expect(text).toContain('the accessibility tree is empty');
    expect(text).toContain('inside a closed shadow root (<report-view> holds');
    expect(text).toContain('extract cannot read them');
    const found = await harness.ok('find', { text: 'revenue grew 12 percent' });
    expect(found.description).toMatch(/\[t\d+\] text "Revenue grew 12 percent in the third quarter, led by subscriptions\."/);
  });

  test('text only in pixels — a picture without alt, a canvas — is named as the reason the tree is empty', async ({ harness }) => {
    const drawing = encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><text x="20" y="60" font-size="40">Quarterly report</text></svg>',
    );
    await harness.open('text-in-picture', `<img src="data:image/svg+xml,${drawing}" width="1000" height="700">`);
    await harness.look();
    expect(harness.observation().text).toContain('probably in a picture (<img> fills much of the page without a text alternative)');

    await harness.open(
      'text-in-canvas',
      `<canvas width="1000" height="700"></canvas>
<script>const pen = document.querySelector('canvas').getContext('2d'); pen.font = '40px sans-serif'; pen.fillText('Quarterly report', 20, 60);</script>`,
    );
    await harness.look();
    expect(harness.observation().text).toContain('probably in a picture (<canvas> fills much of the page without a text alternative)');
  });
});
