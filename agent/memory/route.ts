import { actionHas } from '../actions/registry';
import type { ActionLogEntry, Result } from '../evidence/result-schema';
import { pruneLog } from '../recipe/prune-log';
import { mentionsAny, rowValues, shownForms, templateString, type RowValue } from '../recipe/templatize';
import { SemanticLocator } from '../task/locator-schema';
import type { TaskSpec } from '../task/schema';

/** What a sample's own values look like, so no hint carries one to another sample. */
export interface SampleValues {
  row: RowValue[];
  /** Every form of every value the sample read, and of its inputs. */
  all: string[];
  /** field name of each value read, to name a URL that was read rather than quote it. */
  readAs: Map<string, string>;
}

export function sampleValues(task: TaskSpec, result: Pick<Result, 'input' | 'extracted'>): SampleValues {
  const row = rowValues(result.input, Object.keys(task.input_schema));
  const readAs = new Map<string, string>();
  for (const [field, { value }] of Object.entries(result.extracted)) for (const form of shownForms(value)) readAs.set(form, field);
  const all = [...new Set([...row.map(r => r.value), ...readAs.keys()])].filter(v => v.trim() !== '');
  return { row, all, readAs };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text holds one of the sample's values: a long one anywhere (mentionsAny), a short one ("52", "Q3") as a
 * word of its own — a count read from the page is as sample-specific as a name.
 */
export function holdsValue(text: string, values: SampleValues): boolean {
  if (mentionsAny(text, values.all)) return true;
  return values.all.some(v => v.length < 3 && new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(v)}(?![\\p{L}\\p{N}])`, 'u').test(text));
}

/**
 * The route the recipe compiler would keep — no failed actions, no repeated or undone steps, no detours — minus
 * what only looked busy: a hover nothing used (the next step did not click on the same page) and a bare pause.
 */
export function efficientRoute(result: Pick<Result, 'extracted'>, log: readonly ActionLogEntry[]): ActionLogEntry[] {
  const { kept } = pruneLog(log, result.extracted, 'aggressive');
  return kept.filter(entry => {
    if (actionHas(entry.action.name, 'onlyReveals')) {
      // A hover that opened something is followed at once by a click on what it opened.
      const next = log[log.indexOf(entry) + 1];
      return next !== undefined && next.outcome.success && actionHas(next.action.name, 'chooses') && next.url_before === entry.url_after;
    }
    if (actionHas(entry.action.name, 'onlyWaits')) return entry.action.args.target !== undefined || entry.action.args.text !== undefined;
    return true;
  });
}

const MAX_ROUTE_STEPS = 14;

/** "Efficient route: screenshot "profile" → read display_name from heading → … → done", or undefined when empty. */
export function routeTip(route: readonly ActionLogEntry[], values: SampleValues): string | undefined {
  const steps = route.map(entry => phraseStep(entry, values));
  if (steps.length === 0) return undefined;
  const shown = steps.length > MAX_ROUTE_STEPS ? [...steps.slice(0, MAX_ROUTE_STEPS), '…'] : steps;
  return `Efficient route (${steps.length} actions, no detours): ${shown.join(' → ')}`;
}

/** One step said without refs, selectors or this sample's values (an input is its {{column}}): what to do, on which kind of element. */
export function phraseStep(entry: ActionLogEntry, values: SampleValues): string {
  const args = entry.action.args;
  const target = describeTarget(entry, values);
  const on = target ? ` ${target}` : '';
  switch (entry.action.name) {
    case 'goto':
      return `go to ${generalUrl(String(args.url ?? ''), values)}`;
    case 'extract':
      return `read ${String(args.field)}${target ? ` from${on}` : ''}${args.all ? ' (every match)' : ''}`;
    case 'type':
      return `type ${typedText(String(args.text ?? ''), values)} into${on || ' the field'}`;
    case 'select_option': {
      const value = String(args.value ?? '');
      const column = columnOf(value, values);
      return `choose ${column ? `{{${column}}}` : holdsValue(value, values) ? "the sample's option" : JSON.stringify(value)} in${on || ' the dropdown'}`;
    }
    case 'screenshot':
      return `screenshot ${holdsValue(String(args.label ?? ''), values) ? 'labelled per sample' : JSON.stringify(args.label)}`;
    case 'press':
      return `press ${String(args.key)}${on ? ` on${on}` : ''}`;
    case 'scroll':
      return `scroll ${String(args.direction ?? 'down')}${on ? ` in${on}` : ''}`;
    case 'switch_tab':
      return `switch to tab ${String(args.tab)}`;
    case 'go_back':
      return 'go back';
    case 'refresh':
      return 'reload';
    case 'wait':
      return `wait for${on || (typeof args.text === 'string' && !holdsValue(args.text, values) ? ` text ${JSON.stringify(args.text)}` : ' the page')}`;
    default:
      return `${entry.action.name.replace(/_/g, ' ')}${on}`;
  }
}

function columnOf(text: string, values: SampleValues): string | undefined {
  return values.row.find(r => r.value === text)?.column;
}

function typedText(text: string, values: SampleValues): string {
  if (/^\{\{secret:[A-Za-z0-9_]+\}\}$/.test(text)) return text;
  const column = columnOf(text, values);
  if (column) return `{{${column}}}`;
  const templated = templateString(text, values.row);
  return templated !== text && !holdsValue(templated, values) ? JSON.stringify(templated) : 'the text';
}

/** A URL with the sample's inputs as {{column}}; one it read from the page is named by its field; else only its host. */
function generalUrl(url: string, values: SampleValues): string {
  const field = values.readAs.get(url);
  if (field) return `the URL read as ${field}`;
  const templated = templateString(url, values.row);
  if (!holdsValue(templated.replace(/\{\{[^}]+\}\}/g, ''), values)) return templated;
  try {
    return `a page on ${new URL(url).host}`;
  } catch {
    return 'a page';
  }
}

/** The element as the action layer recorded it (a semantic locator), never a CSS selector or a ref. */
function describeTarget(entry: ActionLogEntry, values: SampleValues): string | undefined {
  const parsed = SemanticLocator.safeParse(entry.locator);
  if (!parsed.success) return undefined;
  const locator = parsed.data as Record<string, unknown>;
  const named = (kind: string, text: unknown) => {
    if (typeof text !== 'string' || !text) return kind;
    const column = columnOf(text, values);
    if (column) return `${kind} showing {{${column}}}`;
    return holdsValue(text, values) ? kind : `${kind} ${JSON.stringify(text)}`;
  };
  if (typeof locator.role === 'string') return named(locator.role, locator.name);
  if (typeof locator.label === 'string') return named('the field labelled', locator.label);
  if (typeof locator.placeholder === 'string') return named('the field with placeholder', locator.placeholder);
  if (typeof locator.text === 'string') return named('the text', locator.text);
  if (typeof locator.testId === 'string') return named('the element with test id', locator.testId);
  return undefined;
}
