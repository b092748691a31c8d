import { describeDocumentFact } from '../task/locator-schema';
import type { DocumentLine, ElementTargets, Look } from './look';

/** `bwa look`'s text: the page state as the model gets it, then each fact and asked element with the recipe target that reads it. */
export function formatLook(look: Look): string[] {
  const budget = look.tokenBudget === undefined ? 'no budget (--full)' : `fitted to ${look.tokenBudget} (--full: no budget)`;
  return [
    `bwa look ${look.url}${look.label ? ` — ${look.label}` : ''}`,
    ...look.notes.map(note => `  · ${note}`),
    '',
    `PAGE STATE — what the model is sent on its first look at this page (${look.pageStateTokens} tokens, ${budget})`,
    look.pageState,
    '',
    ...documentSection(look.document),
    '',
    ...elementSection(look.elements),
  ];
}

function documentSection(lines: readonly DocumentLine[]): string[] {
  if (!lines.length) return ['DOCUMENT — the page says nothing about itself in meta tags, JSON-LD, microdata or <time>'];
  const width = Math.max(...lines.flatMap(line => line.places.map(place => describeDocumentFact(place).length)));
  return [
    'DOCUMENT — what the page says about itself; a recipe reads a fact with extract and the target after → (a fact with no line in the page state is read all the same)',
    ...lines.flatMap(line => [
      `  ${line.ref ? `[${line.ref}]` : '(no line)'} ${line.field} ${JSON.stringify(line.value)}${line.shown && line.shown !== line.value ? ` shows ${JSON.stringify(line.shown)}` : ''}`,
      ...line.places.map(place => `      ${describeDocumentFact(place).padEnd(width)}  → ${JSON.stringify(place)}`),
    ]),
    '  e.g. { "action": "extract", "field": "<field>", "target": <a target above> } — with "pattern", "type" or "missing" as for any read (docs/task-spec.md#locators)',
  ];
}

function elementSection(elements: readonly ElementTargets[]): string[] {
  if (!elements.length)
    return ['ELEMENTS — the targets a recipe step could point at an element with: add --ref <ref> (a ref of the page state above, e.g. e12)'];
  return [
    'ELEMENTS — targets that point at each asked element alone, best first; none names the text it shows now (it differs from page to page)',
    ...elements.flatMap(element => [
      `  [${element.ref}]${element.element ? ` ${element.element}` : ''}`,
      ...(element.problem ? [`      ${element.problem}`] : element.targets.map(target => `      → ${JSON.stringify(target)}`)),
    ]),
  ];
}
