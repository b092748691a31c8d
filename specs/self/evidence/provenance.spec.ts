import { expect, test } from '@playwright/test';
import { Result } from '../../../agent/evidence/result-schema';
import { renderEvidenceIndex } from '../../../agent/report/evidence-index';
import { RESULT_AT as AT, resultOf } from '../helpers/results';

/** result.json as written, with these extracted fields as they are (the schema, not the type, judges them). */
function resultJson(extracted: Record<string, unknown>): Record<string, unknown> {
  return { ...resultOf({ decider: 'model', output_fields: Object.keys(extracted) }), extracted };
}

test('a result.json written before the new provenance keys still parses; the new keys parse beside the old', () => {
  const old = resultJson({ title: { value: 'Ada', provenance: { source: 'dom', url: 'http://x', locator: 'css=h1', ref: 'e3', step: 2, at: AT } } });
  expect(Result.parse(old).extracted.title!.provenance).toEqual({ source: 'dom', url: 'http://x', locator: 'css=h1', ref: 'e3', step: 2, at: AT });
  const current = resultJson({
    published: { value: '2015-04-30', provenance: { source: 'meta', key: 'article:published_time', text: '2015-04-30T10:25:00+02:00', at: AT } },
    author: { value: 'Claire Martin', provenance: { source: 'stated', note: 'from the byline', unread: 'css=.byline at step 3', at: AT } },
    touches_tests: {
      value: true,
      provenance: {
        source: 'derived',
        rule: 'any path starts with test/',
        sources: [{ field: 'paths', value: ['test/a'], source: 'dom', step: 4 }],
        at: AT,
      },
    },
    parts: { value: ['a', 'b'], provenance: { source: 'dom', parts: [{ ref: 'e1', locator: '[e1] link "a"', preview: 'a' }], at: AT } },
  });
  expect(Result.parse(current).extracted.touches_tests!.provenance.sources).toEqual([{ field: 'paths', value: ['test/a'], source: 'dom', step: 4 }]);
  expect(Result.safeParse(resultJson({ x: { value: 1, provenance: { source: 'guessed', at: AT } } })).success).toBe(false);
});

test('the evidence index marks a derived value with its rule and sources, and a stated one by its source', () => {
  const result = Result.parse(
    resultJson({
      touches_tests: {
        value: true,
        provenance: {
          source: 'derived',
          rule: 'any path starts with test/',
          sources: [{ field: 'paths', value: ['test/a'], source: 'dom' }],
          at: AT,
        },
      },
      author: { value: 'Claire Martin', provenance: { source: 'stated', note: 'from the byline', at: AT } },
    }),
  );
  const manifest = {
    run_id: 'r',
    generated_at: AT,
    counts: { total: 1, done: 1, partial_success: 0, needs_review: 0, failed: 0, resumed: 0 },
    problems: [],
  };
  const html = renderEvidenceIndex('/tmp/none', manifest as never, [{ result, resumed: false, traces: [] }]);
  expect(html).toContain('<span class="src src-derived" title="derived: any path starts with test/ — from paths = [&#34;test/a&#34;] (dom)');
  expect(html).toContain('<small class="derived">= any path starts with test/ (from paths)</small>');
  expect(html).toContain('<span class="src src-stated" title="note: from the byline">stated</span>');
});
