import { DISCOVERY_COLUMNS } from '../task/samples';
import type { TaskSpec } from '../task/schema';

export interface SpecProblem {
  path: Array<string | number>;
  message: string;
}

/** The discovered CSV's header: sample_id, the task's input columns, then where each row was found. */
export function discoveredCsvColumns(spec: TaskSpec): string[] {
  return ['sample_id', ...Object.keys(spec.input_schema), ...DISCOVERY_COLUMNS];
}

/**
 * A discovery must be able to fill every input column of the task it feeds, and only those: the CSV loader
 * rejects a header with missing or unknown columns, so this catches the mistake before any browsing.
 */
export function discoverBlockProblems(spec: TaskSpec): SpecProblem[] {
  const block = spec.discover;
  if (!block) return [];
  const problems: SpecProblem[] = [];
  const inputs = Object.keys(spec.input_schema);
  for (const column of inputs) {
    if ((DISCOVERY_COLUMNS as readonly string[]).includes(column))
      problems.push({ path: ['input_schema', column], message: `"${column}" is written by discovery itself; do not declare it` });
    else if (column !== 'url' && !(column in block.record) && !(column in block.record_from))
      problems.push({
        path: ['input_schema', column],
        message: `discovery cannot fill "${column}": add it to discover.record (the model fills it) or discover.record_from (read from the item link), or call the item URL column "url"`,
      });
  }
  for (const key of ['record', 'record_from'] as const)
    for (const column of Object.keys(block[key]))
      if (!inputs.includes(column)) problems.push({ path: ['discover', key, column], message: `"${column}" is not a column of input_schema` });
  if (block.id_from !== 'url' && !inputs.includes(block.id_from))
    problems.push({ path: ['discover', 'id_from'], message: `"${block.id_from}" is neither "url" nor a column of input_schema` });
  const patterns: Array<[Array<string | number>, string | undefined]> = [
    [['discover', 'id_pattern'], block.id_pattern],
    ...Object.entries(block.record_from).map(([column, source]): [Array<string | number>, string | undefined] => [
      ['discover', 'record_from', column, 'pattern'],
      source.pattern,
    ]),
  ];
  for (const [path, pattern] of patterns) {
    const problem = regexProblem(pattern);
    if (problem) problems.push({ path, message: problem });
  }
  for (const [column, source] of Object.entries(block.record_from))
    if (source.from === 'attribute' && !source.attribute)
      problems.push({ path: ['discover', 'record_from', column, 'attribute'], message: 'required when from is "attribute"' });
  return problems;
}

function regexProblem(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `not a valid regular expression (${(error as Error).message})`;
  }
}

export function formatProblems(problems: readonly SpecProblem[]): string {
  return problems.map(p => `  • ${p.path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('')}: ${p.message}`).join('\n');
}
