import { MIN_MASKED_LENGTH, SecretMasker } from './masker';
import { variableOf } from './placeholders';

/** Below this, a value is as likely to be an ordinary word or number of a page as the secret. */
export const SHORT_SECRET_LENGTH = 6;
/** Letters only and no longer than this: a word or a name a page may well show for its own reasons. */
const WORD_LIKE_LENGTH = 12;

/**
 * What `bwa validate` says about one secret a task uses, naming it and never its value: a value too short or too
 * ordinary to mask without masking the page's own words, or one the task's own text holds (that text reaches the
 * model as written). Each with the remedy.
 */
export function secretWarnings(name: string, value: string, authored: ReadonlyArray<{ where: string; text: string }>): string[] {
  const problems: string[] = [];
  const length = Array.from(value).length;
  if (length < MIN_MASKED_LENGTH) problems.push(`is shorter than ${MIN_MASKED_LENGTH} characters: it is never masked (any text could hold it)`);
  else if (/^\p{N}+$/u.test(value))
    problems.push('is a plain number: every page number, log line or prompt that shows that number on its own is masked');
  else if (/^\p{L}+$/u.test(value) && length <= WORD_LIKE_LENGTH)
    problems.push('is an ordinary word (letters only): wherever a page, log or prompt shows that word it is masked');
  else if (length < SHORT_SECRET_LENGTH)
    problems.push(`is short (${length} characters): wherever a page, log or prompt shows it as a word of its own it is masked`);
  if (length >= MIN_MASKED_LENGTH) {
    const masker = SecretMasker.of({ [name]: value });
    const where = [...new Set(authored.filter(text => masker.namesIn(text.text).length > 0).map(text => text.where))];
    if (where.length)
      problems.push(
        `appears in the task's own text (${where.join(', ')}): that text reaches the model as written, while the same word on a page is masked`,
      );
  }
  if (problems.length === 0) return [];
  const remedy = `if it needs no secrecy (a sign-in user name), write {{env:${name}}} and set ${variableOf('env', name)}=… instead; if it does, give it a longer value that is no word or number`;
  return problems.map(problem => `secret ${name} ${problem} — ${remedy}`);
}
