import type { PageMetrics } from './page-metrics';
import type { FlatNode } from './raw';
import { FORM_CONTROL_ROLES } from './roles';
import type { Box } from './types';

export const MASKED_VALUE = '********';

/** Field names that hold credentials even when the page did not use type=password (or lives in a frame we cannot inspect). */
const SECRET_FIELD_NAME = /pass(word|code|phrase)|passwort|mot de passe|contrase|\bpin\b|secret|api[ -]?key|token|one[- ]time|\botp\b|\bcvv\b|\bcvc\b|security code/i;

/**
 * Adds what the AI snapshot leaves out: `required` on form controls, and masks the value of password
 * fields — the snapshot prints a password field's typed value in clear. Matching is by bounding box,
 * which Playwright rounds the same way page-metrics does; child-frame nodes are matched by name only.
 */
export function enrichFormControls(flat: readonly FlatNode[], metrics: Pick<PageMetrics, 'requiredBoxes' | 'passwordBoxes'>): void {
  const required = boxIndex(metrics.requiredBoxes);
  const passwords = boxIndex(metrics.passwordBoxes);
  for (const { node } of flat) {
    if (!FORM_CONTROL_ROLES.has(node.role)) continue;
    const key = node.box && !node.frameRef ? boxKey(node.box) : undefined;
    if (key && required.has(key)) node.states.required = true;
    const isSecret = (key !== undefined && passwords.has(key)) || SECRET_FIELD_NAME.test(`${node.name ?? ''} ${node.placeholder ?? ''}`);
    if (isSecret && node.value) node.value = MASKED_VALUE;
  }
}

function boxKey(box: Box): string {
  return `${box.x},${box.y},${box.width},${box.height}`;
}

function boxIndex(boxes: readonly Box[]): Set<string> {
  return new Set(boxes.filter((box) => box.width > 0 && box.height > 0).map(boxKey));
}
