import { describeDocumentFact, describeLocator, isDocumentFactTarget, SemanticLocator } from '../task/locator-schema';
import type { RecipeStep } from '../task/schema';

/**
 * A recipe step in one line, for people and for a model taking over: `extract title ← css=h1 pattern /…/`;
 * brief, only which step it is (`extract price ← css=.price`), for a message that goes on to say what went wrong.
 */
export function describeStep(step: RecipeStep, brief = false): string {
  const target = SemanticLocator.safeParse(step.target);
  const parts = [step.action];
  if (step.action === 'extract' && typeof step.field === 'string') parts.push(step.field);
  if (target.success) parts.push(`← ${describeLocator(target.data)}`);
  else if (isDocumentFactTarget(step.target)) parts.push(`← ${describeDocumentFact(step.target)}`);
  else if (typeof step.target === 'string') parts.push(`← ${step.target}`);
  if (typeof step.url === 'string') parts.push(step.url);
  if (!brief && typeof step.pattern === 'string') parts.push(`pattern /${step.pattern}/`);
  if (!brief && typeof step.text === 'string') parts.push(JSON.stringify(step.text));
  if (typeof step.label === 'string') parts.push(`"${step.label}"`);
  return parts.join(' ');
}
