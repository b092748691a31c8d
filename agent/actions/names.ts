/**
 * Every action's name, in the order the model sees them: the registry holds a definition for each, and the task
 * schema takes the names a recipe step may use from here. A module that imports nothing, so the task layer can read
 * the list without importing the actions that sit above it.
 */
export const ACTION_NAMES = [
  'goto',
  'go_back',
  'refresh',
  'switch_tab',
  'click',
  'hover',
  'drag',
  'type',
  'press',
  'scroll',
  'select_option',
  'check',
  'uncheck',
  'upload',
  'screenshot',
  'download',
  'extract',
  'wait',
  'expand',
  'find',
  'save_progress',
  'done',
  'fail',
] as const;

export type ActionName = (typeof ACTION_NAMES)[number];
