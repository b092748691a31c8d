import { z } from 'zod';
import { done, fail, saveProgress } from './finish';
import { screenshot } from './screenshot';
import { extract } from './extract';
import { download } from './download';
import { drag } from './drag';
import { click, hover } from './pointer';
import { press, type } from './typing';
import { expand, find } from './page-state';
import { goBack, goto, refresh } from './navigation';
import { scroll } from './scroll';
import { selectOption } from './select';
import { switchTab } from './tabs';
import { check, uncheck } from './toggle';
import { TargetText } from './targets/target';
import type { ActionDefinition } from './core/types';
import { ACTION_NAMES, type ActionName } from './names';
import { upload } from './upload';
import { wait } from './wait';

/** Every action the agent can take, by its name: one for each name in names.ts, none besides. */
const BY_NAME: Readonly<Record<ActionName, ActionDefinition>> = {
  goto,
  go_back: goBack,
  refresh,
  switch_tab: switchTab,
  click,
  hover,
  drag,
  type,
  press,
  scroll,
  select_option: selectOption,
  check,
  uncheck,
  upload,
  screenshot,
  download,
  extract,
  wait,
  expand,
  find,
  save_progress: saveProgress,
  done,
  fail,
};

/** In the order the model sees them. */
const ALL = ACTION_NAMES.map(name => BY_NAME[name]);

const byName = new Map(ALL.map(action => [action.name, action]));

export function actionNames(): string[] {
  return [...ACTION_NAMES];
}

export function getAction(name: string): ActionDefinition | undefined {
  return byName.get(name);
}

/** The yes/no traits an action declares on its definition (navigates, leavesPage, terminal…). */
export type ActionTrait = { [K in keyof ActionDefinition]-?: ActionDefinition[K] extends boolean | undefined ? K : never }[keyof ActionDefinition];

/** Whether the named action declares the trait (an unknown name declares none). */
export function actionHas(name: string, trait: ActionTrait): boolean {
  return byName.get(name)?.[trait] === true;
}

/** The actions that declare the trait, in the order the model sees them. */
export function actionsWith(trait: ActionTrait): string[] {
  return ALL.filter(action => action[trait] === true).map(action => action.name);
}

export function historyWeight(name: string): number {
  return byName.get(name)?.historyWeight ?? 1;
}

/** The rest of a multi-action batch is not run after an action that leaves the page, ends the sample, or must be seen first. */
export function endsBatch(name: string): boolean {
  return actionHas(name, 'leavesPage') || actionHas(name, 'terminal') || actionHas(name, 'endsBatch');
}

/** Whether the action may start data requests on the page (a click, a key, a scroll): not one that only reads, waits, changes the page state or ends the sample. */
export function mayStartRequests(name: string): boolean {
  return !(actionHas(name, 'readsOnly') || actionHas(name, 'pageStateOnly') || actionHas(name, 'terminal'));
}

/** The arguments of an action that name an element (target, drag's `to`): what refs are given in. */
export function elementArguments(name: string): string[] {
  const action = byName.get(name);
  if (!action) return [];
  return Object.entries(action.schema.shape)
    .filter(([, field]) => isTargetSchema(field))
    .map(([key]) => key);
}

function isTargetSchema(schema: unknown): boolean {
  const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return inner instanceof z.ZodUnion && inner.options.includes(TargetText);
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** Anthropic tool definitions, derived from the same zod schemas the dispatcher validates with. */
export function toolDefinitions(names: readonly string[] = actionNames(), extraProperties?: z.ZodObject): ToolDefinition[] {
  return names.map(name => {
    const action = byName.get(name);
    if (!action) throw new Error(`Unknown action ${name}`);
    const schema = extraProperties ? action.schema.extend(extraProperties.shape) : action.schema;
    const { $schema: _ignored, ...input_schema } = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
      override: showTargetsAsText,
    }) as Record<string, unknown>;
    return { name, description: action.description, input_schema: { ...input_schema, type: 'object' } };
  });
}

/**
 * The model names elements with text (a ref, visible text, `css=`); the six object forms recipes may use
 * would cost every request thousands of tokens, so the model is shown the text form only.
 */
function showTargetsAsText(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  if (!isTargetSchema(ctx.zodSchema)) return;
  const description = ctx.jsonSchema.description;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, { type: 'string', minLength: 1, description: description ?? TargetText.description });
}
