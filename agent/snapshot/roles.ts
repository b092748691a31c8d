/** Role vocabularies shared by flattening, pruning, confidence and serialisation. */

/** Controls that hold a value or a state the agent sets. */
export const FORM_CONTROL_ROLES: ReadonlySet<string> = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'spinbutton',
  'slider',
  'listbox',
]);

/** Controls whose AI-snapshot `text` is the control's current value, not content. */
export const VALUE_TEXT_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);

/** Roles a person acts on: the one list, used in Node and passed into the page where code runs there. */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  ...FORM_CONTROL_ROLES,
  'link',
  'button',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
]);

/** Content roles kept by pass 2 when they carry a name or text. */
export const CONTENT_ROLES: ReadonlySet<string> = new Set([
  'heading',
  'table',
  'row',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'listitem',
  'status',
  'alert',
  'dialog',
  'alertdialog',
  'img',
  'tabpanel',
  'progressbar',
  'meter',
  'paragraph',
  'text',
  'caption',
  'note',
  'log',
  'blockquote',
  'code',
  'term',
  'definition',
  'time',
  'tooltip',
  'figure',
  'math',
  'strong',
  'emphasis',
  'deletion',
  'insertion',
  'subscript',
  'superscript',
  'mark',
]);

/** Structural roles shown as a context line only when they carry a name (e.g. group "Shipping address"). */
export const NAMED_CONTAINER_ROLES: ReadonlySet<string> = new Set([
  'group',
  'radiogroup',
  'form',
  'region',
  'article',
  'search',
  'tablist',
  'menu',
  'menubar',
  'toolbar',
  'tree',
  'grid',
  'treegrid',
  'list',
  'navigation',
  'main',
  'iframe',
]);

/** Never dropped by the budget: the page is asking the user something. */
export const URGENT_ROLES: ReadonlySet<string> = new Set(['dialog', 'alertdialog', 'alert']);

export const LANDMARK_ROLES: ReadonlySet<string> = new Set([
  'banner',
  'navigation',
  'contentinfo',
  'complementary',
  'main',
  'region',
  'search',
  'form',
]);

/** Page chrome: landmarks that frame every page rather than carry its content. banner/contentinfo are chrome by ARIA definition (scoped to <body>). */
export const CHROME_ROLES: ReadonlySet<string> = new Set(['banner', 'navigation', 'contentinfo', 'complementary']);

/** Roles whose text is printed as plain `text "…"`: the role adds nothing for the model. */
export const PLAIN_TEXT_ROLES: ReadonlySet<string> = new Set(['text', 'paragraph', 'generic', 'strong', 'emphasis']);

export const TABLE_CELL_ROLES: ReadonlySet<string> = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Elements a person acts on, as a CSS selector: the native controls and every interactive role. */
export const INTERACTIVE_SELECTOR = [
  'a[href]',
  'button',
  'input',
  'select',
  'textarea',
  'summary',
  ...[...INTERACTIVE_ROLES].map(role => `[role=${role}]`),
].join(',');

export function isInteractiveRole(role: string): boolean {
  return INTERACTIVE_ROLES.has(role);
}
