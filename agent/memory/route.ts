import { actionHas, getAction } from '../actions/registry';
import type { ActionLogEntry, Result } from '../evidence/result-schema';
import { pruneLog } from '../recipe/prune-log';
import { mentionsAny, rowValues, shownForms, templateString, type RowValue } from '../recipe/templatize';
import { SemanticLocator } from '../task/locator-schema';
import type { TaskSpec } from '../task/schema';
import { isSecretPlaceholder } from '../secrets/placeholders';
import { GeneralText, VARYING, wholeValues } from './general-text';

/** What a sample's own values look like, so no hint carries one to another sample. */
export interface SampleValues {
  row: RowValue[];
  /** Every form of every value the sample read, and of its inputs. */
  all: string[];
  /** The field each value was read into, for the values only one field holds: one two fields share names neither. */
  readAs: Map<string, string>;
}

/** Every value the sample read — its extracted fields, and what it saved or stated from its pages — and its inputs. */
export function sampleValues(task: TaskSpec, result: Pick<Result, 'input' | 'extracted'>, log: readonly ActionLogEntry[] = []): SampleValues {
  const row = rowValues(result.input, Object.keys(task.input_schema));
  const fieldsOf = new Map<string, Set<string>>();
  for (const [field, { value }] of Object.entries(result.extracted))
    for (const form of shownForms(value)) fieldsOf.set(form, (fieldsOf.get(form) ?? new Set()).add(field));
  const readAs = new Map([...fieldsOf].filter(([, fields]) => fields.size === 1).map(([form, fields]) => [form, [...fields][0]!]));
  const stated = log.flatMap(entry => [entry.action.args.data, entry.action.args.extracted]).flatMap(leaves);
  const all = [...new Set([...row.map(r => r.value), ...fieldsOf.keys(), ...stated])].filter(v => v.trim() !== '');
  return { row, all, readAs };
}

/** The text forms of every leaf of saved data (save_progress data, done's extracted). */
function leaves(value: unknown): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) return Object.values(value).flatMap(leaves);
  if (Array.isArray(value)) return value.flatMap(leaves);
  return shownForms(value);
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

export interface Route {
  steps: ActionLogEntry[];
  /** Steps of the sample's own log left out as failed, undone, repeated, detours or idle — none for an efficient route. */
  leftOut: number;
}

/**
 * The route the recipe compiler would keep — no failed actions, no repeated or undone steps, no detours — minus
 * what only looked busy: a hover nothing used (the next step did not click on the same page) and a bare pause.
 */
export function efficientRoute(result: Pick<Result, 'extracted'>, log: readonly ActionLogEntry[]): Route {
  const { kept, dropped } = pruneLog(log, result.extracted, 'aggressive');
  const steps = kept.filter(entry => {
    if (actionHas(entry.action.name, 'onlyReveals')) {
      // A hover that opened something is followed at once by a click on what it opened.
      const next = log[log.indexOf(entry) + 1];
      return next !== undefined && next.outcome.success && actionHas(next.action.name, 'chooses') && next.url_before === entry.url_after;
    }
    if (actionHas(entry.action.name, 'onlyWaits')) return entry.action.args.target !== undefined || entry.action.args.text !== undefined;
    return true;
  });
  // Opening the start page, reading the page state (expand, find) and what is never replayed are no detours.
  const wasted = dropped.filter(({ entry }) => !isSetup(entry)).length;
  return { steps, leftOut: wasted + kept.length - steps.length };
}

function isSetup(entry: ActionLogEntry): boolean {
  return entry.decider === 'loop' || getAction(entry.action.name)?.replay === 'never' || actionHas(entry.action.name, 'pageStateOnly');
}

const MAX_ROUTE_STEPS = 14;

/**
 * "Efficient route (4 actions, no detours): screenshot "profile" → read display_name from heading → … → done" — only
 * for a sample that walked it without a failed, undone or idle step. Any other sample's kept steps were never walked
 * as they stand, so they are never called a route that worked: "Steps kept from a sample with 3 failed, undone or
 * idle steps (4 actions, never walked as they stand): …". Undefined when empty.
 */
export function routeTip(route: Route, values: SampleValues): string | undefined {
  const steps = route.steps.map(entry => phraseStep(entry, values));
  if (steps.length === 0) return undefined;
  const shown = steps.length > MAX_ROUTE_STEPS ? [...steps.slice(0, MAX_ROUTE_STEPS), '…'] : steps;
  return `${routeLabel(route)}: ${shown.join(' → ')}`;
}

function routeLabel(route: Route): string {
  const actions = `${route.steps.length} action${route.steps.length === 1 ? '' : 's'}`;
  if (route.leftOut === 0) return `Efficient route (${actions}, no detours)`;
  return `Steps kept from a sample with ${route.leftOut} failed, undone or idle step${route.leftOut === 1 ? '' : 's'} (${actions}, never walked as they stand)`;
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
      const general = generalLabel(value, values);
      return `choose ${column ? `{{${column}}}` : general === undefined ? "the sample's option" : JSON.stringify(general)} in${on || ' the dropdown'}`;
    }
    case 'screenshot': {
      const general = generalLabel(String(args.label ?? ''), values);
      return `screenshot ${general === undefined ? 'labelled per sample' : JSON.stringify(general)}`;
    }
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
    case 'wait': {
      const text = typeof args.text === 'string' ? generalLabel(args.text, values) : undefined;
      return `wait for${on || (text !== undefined ? ` text ${JSON.stringify(text)}` : ' the page')}`;
    }
    default:
      return `${entry.action.name.replace(/_/g, ' ')}${on}`;
  }
}

function columnOf(text: string, values: SampleValues): string | undefined {
  return values.row.find(r => r.value === text)?.column;
}

function typedText(text: string, values: SampleValues): string {
  if (isSecretPlaceholder(text)) return text;
  const column = columnOf(text, values);
  if (column) return `{{${column}}}`;
  const templated = templateString(text, values.row);
  return templated !== text && !holdsValue(templated, values) ? JSON.stringify(templated) : 'the text';
}

/**
 * A URL with the sample's inputs as {{column}}, and what another sample's page would show differently (an id, a
 * number) as <n>; one it read from the page is named by its field; else only its host.
 */
function generalUrl(url: string, values: SampleValues): string {
  const field = values.readAs.get(url);
  if (field) return `the URL read as ${field}`;
  const templated = templateString(url, values.row);
  const origin = /^[a-z][\w+.-]*:\/\/[^/?#]+/i.exec(templated)?.[0] ?? '';
  const general = `${origin}${generalLabel(templated.slice(origin.length), values) ?? ''}`;
  if (general.length > origin.length && !holdsValue(general.replace(/\{\{[^}]+\}\}/g, ''), values)) return general;
  try {
    return `a page on ${new URL(url).host}`;
  } catch {
    return 'a page';
  }
}

/**
 * The element as the page showed it — its semantic locator, else what the page state showed (a CSS path's element:
 * its role, words or icon) — never a CSS selector or a ref, and in words that hold on another sample's page.
 */
function describeTarget(entry: ActionLogEntry, values: SampleValues): string | undefined {
  const parsed = SemanticLocator.safeParse(entry.locator);
  const named = (kind: string, text: unknown) => {
    if (typeof text !== 'string' || !text) return kind;
    const column = columnOf(text, values);
    if (column) return `${kind} showing {{${column}}}`;
    const general = generalLabel(text, values);
    if (general === undefined) return kind;
    return /[\p{L}]/u.test(general.replace(PLACEHOLDER, '')) ? `${kind} ${JSON.stringify(general)}` : `${kind} showing ${general}`;
  };
  if (!parsed.success || 'css' in parsed.data) {
    const seen = entry.target_seen;
    if (!seen) return undefined;
    if (seen.name || seen.text) return named(seen.role, seen.name ?? seen.text);
    return seen.hint ? `${seen.role} with icon ${JSON.stringify(generalLabel(seen.hint, values) ?? '')}` : seen.role;
  }
  const locator = parsed.data as Record<string, unknown>;
  if (typeof locator.role === 'string') return named(locator.role, locator.name);
  if (typeof locator.label === 'string') return named('the field labelled', locator.label);
  if (typeof locator.placeholder === 'string') return named('the field with placeholder', locator.placeholder);
  if (typeof locator.text === 'string') return named('the text', locator.text);
  if (typeof locator.testId === 'string') return named('the element with test id', locator.testId);
  return undefined;
}

const PLACEHOLDER = /<[a-z_]+>|\{\{[^}]+\}\}/g;

/**
 * A page string in words that hold on any sample's page: the values this sample read become <field>, its inputs
 * {{column}}, and what varies from page to page (a phone number, a date, a count) a placeholder — "Call <phone>",
 * "<n> comments", "<followers> followers". Whole values only, each replaced once (general-text.ts). Undefined when a
 * value of the sample would still show.
 */
export function generalLabel(text: string, values: SampleValues): string | undefined {
  const general = new GeneralText(text);
  const read = wholeValues([...values.readAs.keys()]);
  if (read) general.replace(read, form => `<${values.readAs.get(form)!}>`);
  general.rewrite(piece => templateString(piece, values.row));
  for (const [pattern, replace] of VARYING) general.replace(pattern, replace);
  return holdsValue(general.remainder.replace(PLACEHOLDER, ' '), values) ? undefined : general.toString();
}
