import { isoDate, readDate } from '../../agent/actions/values/dates';
import { DOCUMENT_FIELDS } from '../../agent/snapshot/document-facts';
import type { Observation } from '../../agent/snapshot';
import { estimateTokens } from '../../agent/snapshot/tokens';

/** What the page state's document section holds on one page, what it costs, and whether its dates agree. */
export interface DocumentMeasure {
  /** Fields with at least one line. */
  fields: string[];
  /** Estimated tokens of the section as the first look prints it. */
  tokens: number;
  /** <time> lines, those whose visible words read as another date than their datetime, and those whose words are no date. */
  times: number;
  timesDisagree: number;
  timesUnread: number;
  /** Visible words that are a relative date ("1 ano atrás"): read as the datetime itself, as extract does. */
  timesRelative: number;
  disagreements: string[];
  /** The tree was (nearly) empty and the page state said why. */
  emptyTree?: string;
}

/** A value's line, or the last line naming those the budget left out. */
const isSectionLine = (line: string) => line.startsWith(' [d') || line.startsWith(' (also: [d');

export function measureDocument(state: Observation): DocumentMeasure {
  const lines = state.text.split('\n');
  const start = lines.findIndex(line => line.startsWith('[d0] document'));
  const section = start < 0 ? [] : [lines[start]!, ...lines.slice(start + 1).filter((_, i, rest) => rest.slice(0, i + 1).every(isSectionLine))];
  const lang = state.document.find(fact => fact.field === 'language')?.value;
  const measure: DocumentMeasure = {
    fields: [...new Set(state.document.map(fact => fact.field))],
    tokens: section.length ? estimateTokens(section.join('\n')) : 0,
    times: 0,
    timesDisagree: 0,
    timesUnread: 0,
    timesRelative: 0,
    disagreements: [],
  };
  for (const fact of state.document.filter(f => f.field === 'time' && f.shown)) {
    measure.times++;
    const stamp = new Date(fact.value);
    const said = /^\d{4}-\d{2}-\d{2}/.exec(fact.value)?.[0];
    const shown = readDate(fact.shown!, {
      languages: lang ? [lang] : [],
      reference: Number.isNaN(stamp.getTime()) ? undefined : { instant: stamp, said: 'its datetime' },
    });
    if (!shown || !said) measure.timesUnread++;
    else if (shown.reading?.startsWith('relative')) measure.timesRelative++;
    else if (isoDate(shown.date) !== said) {
      measure.timesDisagree++;
      measure.disagreements.push(`shows ${JSON.stringify(fact.shown)}, datetime ${fact.value}`);
    }
  }
  const note = lines.find(line => line.startsWith('(the accessibility tree'));
  if (note) measure.emptyTree = note;
  return measure;
}

export function documentReport(measures: readonly DocumentMeasure[], stat: (values: number[], digits?: number) => string): string[] {
  const pct = (n: number) => `${((100 * n) / Math.max(1, measures.length)).toFixed(1)}%`;
  const presence = DOCUMENT_FIELDS.map(field => `${field} ${pct(measures.filter(m => m.fields.includes(field)).length)}`);
  const times = measures.reduce((sum, m) => sum + m.times, 0);
  const disagree = measures.reduce((sum, m) => sum + m.timesDisagree, 0);
  const unread = measures.reduce((sum, m) => sum + m.timesUnread, 0);
  const relative = measures.reduce((sum, m) => sum + m.timesRelative, 0);
  const withSection = measures.filter(m => m.tokens > 0);
  return [
    `document section on ${withSection.length}/${measures.length} pages; fields present: ${presence.join(', ')}`,
    `document section est. tokens (first look): ${stat(
      withSection.map(m => m.tokens),
      0,
    )}, max ${Math.max(0, ...withSection.map(m => m.tokens))}; over 150: ${withSection.filter(m => m.tokens > 150).length}`,
    `<time> lines: ${times} on ${measures.filter(m => m.times).length} pages; visible date ≠ datetime date: ${disagree}; visible words not a date: ${unread}; a relative date (the datetime is its value): ${relative}`,
    ...measures
      .flatMap(m => m.disagreements.slice(0, 1))
      .slice(0, 5)
      .map(d => `  e.g. ${d}`),
    `empty tree explained: ${measures.filter(m => m.emptyTree).length} pages`,
    ...measures.flatMap(m => (m.emptyTree ? [`  ${m.emptyTree.slice(0, 200)}`] : [])).slice(0, 5),
  ];
}
