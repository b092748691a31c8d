/**
 * Adds `withBwa` to a Playwright config's text — only where the edit is certain: one `export default <expression>`
 * (or `module.exports = <expression>`) whose end is found by reading brackets, strings, template literals and
 * comments. Anything else is left as it is, and the lines to add are printed instead.
 */

export const IMPORT_NAME = 'withBwa';

export type Wiring = { kind: 'wired'; text: string } | { kind: 'already'; why: string } | { kind: 'manual'; why: string; lines: string[] };

export function wireConfig(text: string, packageName = 'bwa'): Wiring {
  if (new RegExp(`\\b${IMPORT_NAME}\\s*\\(`).test(stripComments(text))) return { kind: 'already', why: `it already calls ${IMPORT_NAME}(…)` };
  const esm = /^\s*(import\s|export\s)/m.test(stripComments(text));
  const importLine = esm ? `import { ${IMPORT_NAME} } from '${packageName}';` : `const { ${IMPORT_NAME} } = require('${packageName}');`;
  const manual = (why: string): Wiring => ({
    kind: 'manual',
    why,
    lines: [
      importLine,
      esm
        ? `export default ${IMPORT_NAME}(defineConfig({ /* your config, as it is */ }));`
        : `module.exports = ${IMPORT_NAME}(defineConfig({ /* your config, as it is */ }));`,
    ],
  });
  const exports = [...topLevelMatches(text, /export\s+default\s+|module\.exports\s*=\s*/g)];
  if (exports.length > 1) return manual('it exports its config in more than one place');
  if (exports.length === 0)
    return manual(
      /export\s+default\b|module\.exports\s*=/.test(stripComments(text))
        ? 'it exports its config inside a block (an if/else, a function)'
        : 'no `export default …` or `module.exports = …` was found',
    );
  const start = exports[0]!.end;
  const end = expressionEnd(text, start);
  if (end === undefined) return manual('the end of the exported expression could not be found for certain');
  const expression = text.slice(start, end).trimEnd();
  if (!expression || /^(function|class|async)\b/.test(expression)) return manual('the config is exported as a declaration, not an expression');
  const wrapped = withImport(`${text.slice(0, start)}${IMPORT_NAME}(${expression})${text.slice(start + expression.length)}`, importLine, esm);
  if (!balanced(wrapped)) return manual('the edit would not leave the file balanced');
  return { kind: 'wired', text: wrapped };
}

/** The import goes before the first import (or require) of the file, after a leading comment or directive. */
function withImport(text: string, line: string, esm: boolean): string {
  const first = [...topLevelMatches(text, esm ? /^import\s/gm : /^(const|let|var)\s[^\n]*require\(/gm)][0];
  const at = first ? first.start : leadingEnd(text);
  return `${text.slice(0, at)}${line}\n${at === leadingEnd(text) && !first ? '\n' : ''}${text.slice(at)}`;
}

/** Past a shebang, leading comments and 'use strict'. */
function leadingEnd(text: string): number {
  const lead = /^(#![^\n]*\n)?(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/\s*\n|(['"])use strict\4;?\s*\n))*/.exec(text);
  return lead ? lead[0].length : 0;
}

interface Match {
  start: number;
  end: number;
}

/** Matches of a pattern at bracket depth 0, outside strings and comments. */
function* topLevelMatches(text: string, pattern: RegExp): Generator<Match> {
  const depthAt = scan(text);
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (depthAt[at] === 0) yield { start: at, end: at + match[0].length };
  }
}

/**
 * Where the expression starting at `from` ends: the first `;` outside its brackets, or a line break outside them
 * where the line so far is complete and the next line cannot continue it (automatic semicolon insertion).
 * Undefined when the brackets do not balance.
 */
function expressionEnd(text: string, from: number): number | undefined {
  const depthAt = scan(text);
  for (let i = from; i < text.length; i++) {
    const depth = depthAt[i]!;
    if (depth === -1) continue;
    if (depth < 0) return undefined;
    if (depth > 0) continue;
    if (text[i] === ';') return i;
    if (text[i] === '\n') {
      const before = stripComments(text.slice(from, i)).trim();
      const after = stripComments(text.slice(i)).trimStart();
      if (before && !/[=+\-*/%&|^!?:,.([{<>]$/.test(before) && !/^[.([?+\-*/%&|^,=<>`]/.test(after)) return i;
    }
  }
  return scan(text).every(depth => depth >= -1) ? text.length : undefined;
}

/**
 * For each character: its bracket depth ((, [, {), or -1 inside a string, template literal or comment. A closing
 * bracket gets the depth outside it. Unbalanced text gets negative depths, which callers treat as uncertain.
 */
function scan(text: string): number[] {
  const depths = new Array<number>(text.length).fill(0);
  let depth = 0;
  const templates: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      for (; i < stop; i++) depths[i] = -1;
      i--;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) depths[i] = -1;
      i--;
      continue;
    }
    if (char === '"' || char === "'") {
      depths[i] = -1;
      for (i++; i < text.length && text[i] !== char && text[i] !== '\n'; i++) {
        depths[i] = -1;
        if (text[i] === '\\') depths[++i] = -1;
      }
      depths[i] = -1;
      continue;
    }
    if (char === '`' || (char === '}' && templates.at(-1) === depth)) {
      if (char === '}') templates.pop();
      depths[i] = -1;
      for (i++; i < text.length && text[i] !== '`'; i++) {
        depths[i] = -1;
        if (text[i] === '\\') depths[++i] = -1;
        else if (text[i] === '$' && text[i + 1] === '{') {
          depths[++i] = -1;
          templates.push(depth);
          break;
        }
      }
      if (text[i] === '`') depths[i] = -1;
      continue;
    }
    if (char === '(' || char === '[' || char === '{') {
      depths[i] = depth;
      depth++;
      continue;
    }
    if (char === ')' || char === ']' || char === '}') depth--;
    depths[i] = depth;
  }
  return depths;
}

function balanced(text: string): boolean {
  const depths = scan(text);
  return depths.every(depth => depth >= -1) && (depths.findLast(depth => depth !== -1) ?? 0) === 0;
}

function stripComments(text: string): string {
  const depths = scan(text);
  return text
    .split('')
    .map((unit, i) => (depths[i] === -1 && !/["'`]/.test(unit) ? ' ' : unit))
    .join('');
}
