import type { ScriptInput } from '../../fixtures/model-server';
import type { PageLine } from '../../fixtures/model-server/page-state';
import type { PromptView, ScriptStepInput } from '../../fixtures/model-server/script-schema';

/**
 * How the bench's scripted model reads an article from the page state it was sent — the level-1 heading first, the
 * document section's lines next, the lines under the headline last — never from the truth.
 */

/** A document-section line by its field ("[d3] author …", or "[d3] author" on the folded line). */
export function documentLine(view: PromptView, field: string): { ref: string } | undefined {
  const line = view.page.find(l => l.ref?.startsWith('d') && l.role === field);
  return line?.ref ? { ref: line.ref } : undefined;
}
const isHeadingOne = (line: PageLine) => line.role === 'heading' && /\(level 1\)/.test(line.rest) && Boolean(line.ref);

/** What a careful reader takes from the page state: the visible headline first, the page's own metadata next. */
export function headline(view: PromptView): ScriptStepInput {
  const heading = view.page.find(isHeadingOne);
  if (heading) return read('headline', heading.ref!);
  const fromDocument = documentLine(view, 'title');
  if (fromDocument) return read('headline', fromDocument.ref!);
  // The window title starts with the headline: the line that says the same is the headline.
  const title = /^Title: "(.*)"$/m.exec(view.text)?.[1] ?? '';
  const line = view.page.find(l => l.ref?.startsWith('e') && l.name && l.name.length > 3 && title.startsWith(l.name) && l.role !== 'banner');
  return line ? read('headline', line.ref!) : { tool: 'done', args: { extracted: {}, note: 'no headline in the page state' } };
}

/** The short lines right under the headline, before the article's text starts: where a byline and its date sit. */
function bylineLines(view: PromptView): PageLine[] {
  const below = afterHeading(view).slice(0, 6);
  const text = below.findIndex(line => (line.name?.length ?? 0) > 60);
  return (text < 0 ? below : below.slice(0, text)).filter(line => line.role !== 'heading');
}

function afterHeading(view: PromptView): PageLine[] {
  const at = view.page.findIndex(isHeadingOne);
  return at >= 0 ? view.page.slice(at + 1) : view.page.filter(line => line.ref?.startsWith('e'));
}

/** A line the document section prints as `other` (a meta no family defines) whose name says what it holds. */
function otherLine(view: PromptView, says: RegExp): { ref: string } | undefined {
  const line = view.page.find(l => l.ref?.startsWith('d') && l.role === 'other' && says.test(l.rest));
  return line?.ref ? { ref: line.ref } : undefined;
}

/** A name the document section gives first; a byline's link next (an author given only as an address is a last resort). */
export function author(view: PromptView): ScriptStepInput {
  const named = view.page.find(line => line.ref?.startsWith('d') && line.role === 'author' && line.name !== undefined);
  const fromDocument = named?.ref ? { ref: named.ref } : otherLine(view, /author|writer|byline|creator/i);
  if (fromDocument) return read('author', fromDocument.ref);
  const below = afterHeading(view).slice(0, 6);
  // A link inside the byline's running text: `[e8] text "By" [e9] link "Ruth Okoro" → …`.
  const link = below.map(line => /\[(e\d+)\] link "/.exec(line.raw)?.[1]).find(Boolean);
  if (link) return read('author', link);
  const short = below.find(line => line.role === 'text' && line.ref && (line.name?.length ?? 0) <= 40 && !/\d/.test(line.name ?? ''));
  if (short) return read('author', short.ref!);
  const address = documentLine(view, 'author');
  return address ? read('author', address.ref) : { tool: 'done', args: { extracted: {}, note: 'no byline in the page state' } };
}

const DATE_WORDS =
  /\d{4}|\d{1,2}[./]\d{1,2}|\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b|[年월]|\bago\b/i;

/**
 * The date as a careful auditor takes it: from what the page says about itself and from the date the byline shows,
 * both read when both are there (two turns: a turn holds three calls), so the record holds both and says when they
 * disagree. `first` is the first turn's read, `second` the byline's when the first read the document section.
 */
export function dateReads(view: PromptView): { first: ScriptStepInput; second?: ScriptStepInput } {
  const fromDocument = documentLine(view, 'published') ?? documentLine(view, 'time') ?? otherLine(view, /date|publish|time/i);
  const shown = bylineLines(view).find(line => line.ref?.startsWith('e') && DATE_WORDS.test(`${line.name ?? ''} ${line.rest}`));
  const [first, second] = [fromDocument, shown].flatMap(line => (line?.ref ? [read('published', line.ref, 'date')] : []));
  return { first: first ?? { tool: 'done', args: { extracted: {}, note: 'no date in the page state' } }, ...(second ? { second } : {}) };
}

function siteName(view: PromptView): ScriptStepInput {
  const fromDocument = documentLine(view, 'site_name');
  return fromDocument ? read('site_name', fromDocument.ref!) : { tool: 'done', args: { extracted: {}, note: 'no site name in the page state' } };
}

export function read(field: string, ref: string, type?: string): ScriptStepInput {
  return { tool: 'extract', target: { ref }, args: { field, ...(type ? { type } : {}) } };
}

/** Three reads batched on the first page state; the site name (its document section folded to one line) and the byline's date on the next. */
export function readingScript(task: string): ScriptInput {
  let byline: ScriptStepInput | undefined;
  return {
    description: `${task}: headline, author, date and site name from the page state`,
    steps: [
      {
        what: 'read the headline, author and date',
        decide: (view: PromptView) => {
          const dates = dateReads(view);
          byline = dates.second;
          return { batch: [headline(view), author(view), dates.first] } as ScriptStepInput;
        },
      },
      {
        what: "read the site name and the byline's date",
        decide: (view: PromptView) => ({ batch: [siteName(view), ...(byline ? [byline] : [])] }) as ScriptStepInput,
      },
      { tool: 'done', args: { extracted: {} } },
    ],
    on_unmatched: 'canned',
  } as ScriptInput;
}
