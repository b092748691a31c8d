import type { FlatNode } from './raw';
import { INTERACTIVE_ROLES } from './roles';
import { MAX_NAME_CHARS } from './serialize';

/**
 * A link or button is one line: the text and images inside it are its name (Playwright leaves the name out
 * when its children carry it), so they fold into the control's line instead of printing beneath it. Controls
 * nested inside (a button in a card link) keep their own lines, and so does the content of a control whose
 * name is too long to print whole.
 */
export function foldControlContent(flat: readonly FlatNode[], consumed: Uint8Array): void {
  for (const item of flat) {
    const node = item.node;
    if (consumed[item.index] || !node.ref || !INTERACTIVE_ROLES.has(node.role) || item.end === item.index + 1) continue;
    if (hasNestedControl(flat, item)) continue;
    const name = node.name ?? labelFromContent(flat, item);
    if (!name || name.length > MAX_NAME_CHARS) continue;
    node.name = name;
    consumed.fill(1, item.index + 1, item.end);
  }
}

function hasNestedControl(flat: readonly FlatNode[], item: FlatNode): boolean {
  for (let index = item.index + 1; index < item.end; index++) {
    const child = flat[index];
    if (child && child.node.ref && (INTERACTIVE_ROLES.has(child.node.role) || child.node.clickable)) return true;
  }
  return false;
}

function labelFromContent(flat: readonly FlatNode[], item: FlatNode): string | undefined {
  const parts: string[] = [];
  for (let index = item.index + 1; index < item.end; index++) {
    const child = flat[index]?.node;
    const label = child?.name ?? child?.text;
    if (!label || parts.includes(label)) continue;
    parts.push(label);
    if (child?.name) index = (flat[index] as FlatNode).end - 1;
  }
  const joined = parts.join(' ').trim();
  return joined || undefined;
}
