import { actionHas, getAction } from '../actions/registry';
import type { ActionLogEntry, ExtractedField } from '../evidence/result-schema';
import { isReadSource } from '../loop/recorder';

/**
 * Which logged actions moved the sample forward. `aggressive` also drops what only looks useless from the
 * log (a detour, a control clicked twice); compile falls back to `conservative` when the replay disagrees.
 */
export type PruneLevel = 'aggressive' | 'conservative';

export interface Pruned {
  kept: ActionLogEntry[];
  dropped: Array<{ entry: ActionLogEntry; why: string }>;
}

const UNDOES: Record<string, string> = { check: 'uncheck', uncheck: 'check' };

/** Actions whose effect is the point of the task (data, evidence, input); everything else only gets there. */
const isProductive = (name: string) => actionHas(name, 'productive');
const setsValue = (name: string) => actionHas(name, 'setsValue');

export function pruneLog(log: readonly ActionLogEntry[], extracted: Readonly<Record<string, ExtractedField>>, level: PruneLevel): Pruned {
  const dropped: Pruned['dropped'] = [];
  const drop = (entry: ActionLogEntry, why: string) => dropped.push({ entry, why });
  let kept: ActionLogEntry[] = [];
  for (const entry of log) {
    if (entry.decider === 'loop') drop(entry, 'the start page is opened by the loop');
    else if (!entry.outcome.success) drop(entry, 'failed');
    else if (getAction(entry.action.name)?.replay === 'never') drop(entry, 'not replayable');
    else if (actionHas(entry.action.name, 'pageStateOnly')) drop(entry, 'it only changed what the page state showed');
    else if (entry.action.name === 'extract' && !isFinalExtract(entry, log, extracted)) drop(entry, 'its value was replaced later');
    else kept.push(entry);
  }
  kept = dropOverwrittenInput(kept, drop);
  kept = dropUndone(kept, drop);
  if (level === 'aggressive') {
    kept = dropRepeatedClicks(kept, drop);
    kept = dropDetours(kept, drop);
  }
  return { kept, dropped };
}

/** The extract whose value ended in the result (read from an element or the document; its provenance names the step); earlier reads were superseded. */
function isFinalExtract(entry: ActionLogEntry, log: readonly ActionLogEntry[], extracted: Readonly<Record<string, ExtractedField>>): boolean {
  const field = String(entry.action.args.field ?? '');
  const final = extracted[field];
  if (!final || !isReadSource(final.provenance.source) || final.provenance.step !== entry.step) return false;
  const sameStep = log.filter(e => e.step === entry.step && e.action.name === 'extract' && e.action.args.field === field && e.outcome.success);
  return sameStep[sameStep.length - 1] === entry;
}

const targetKey = (entry: ActionLogEntry) => JSON.stringify(entry.locator ?? entry.action.args.target ?? null);

/** Typing into a field twice: the last text is the one the form was sent with. */
function dropOverwrittenInput(entries: ActionLogEntry[], drop: (e: ActionLogEntry, why: string) => void): ActionLogEntry[] {
  return entries.filter((entry, i) => {
    if (!setsValue(entry.action.name)) return true;
    const later = entries.slice(i + 1);
    const next = later.find(e => e.action.name === entry.action.name && targetKey(e) === targetKey(entry));
    if (!next) return true;
    const between = later.slice(0, later.indexOf(next));
    if (between.some(e => actionHas(e.action.name, 'maySubmit') || e.url_after !== entry.url_after)) return true;
    drop(entry, 'overwritten by a later one');
    return false;
  });
}

/** check X … uncheck X with nothing productive between: neither happened. */
function dropUndone(entries: ActionLogEntry[], drop: (e: ActionLogEntry, why: string) => void): ActionLogEntry[] {
  const out = [...entries];
  for (let i = 0; i < out.length; i++) {
    const entry = out[i]!;
    const undo = UNDOES[entry.action.name];
    if (!undo) continue;
    const j = out.findIndex((e, k) => k > i && e.action.name === undo && targetKey(e) === targetKey(entry));
    if (j < 0 || out.slice(i + 1, j).some(e => isProductive(e.action.name))) continue;
    drop(entry, `undone by ${undo}`);
    drop(out[j]!, `undoes ${entry.action.name}`);
    out.splice(j, 1);
    out.splice(i, 1);
    i--;
  }
  return out;
}

/** The same control clicked twice in a row without leaving the page: opened and closed again. */
function dropRepeatedClicks(entries: ActionLogEntry[], drop: (e: ActionLogEntry, why: string) => void): ActionLogEntry[] {
  const out: ActionLogEntry[] = [];
  for (const entry of entries) {
    const previous = out[out.length - 1];
    const repeated =
      previous &&
      entry.action.name === 'click' &&
      previous.action.name === 'click' &&
      targetKey(previous) === targetKey(entry) &&
      previous.url_before === previous.url_after &&
      entry.url_before === entry.url_after;
    if (repeated) {
      out.pop();
      drop(previous, 'clicked again right after (toggled back)');
      drop(entry, 'toggles the previous click back');
    } else out.push(entry);
  }
  return out;
}

/**
 * Navigation that came back where it started with nothing productive on the way (a detour), and navigation
 * made pointless by a later goto before anything productive happened.
 */
function dropDetours(entries: ActionLogEntry[], drop: (e: ActionLogEntry, why: string) => void): ActionLogEntry[] {
  let out = [...entries];
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < out.length && !changed; i++) {
      const start = out[i]!;
      if (isProductive(start.action.name) || start.url_before === start.url_after) continue;
      for (let j = i; j < out.length; j++) {
        const entry = out[j]!;
        if (isProductive(entry.action.name)) break;
        if (entry.url_after === start.url_before) {
          for (const e of out.slice(i, j + 1)) drop(e, 'a detour that came back to where it started');
          out = [...out.slice(0, i), ...out.slice(j + 1)];
          changed = true;
          break;
        }
        const next = out[j + 1];
        if (next?.action.name === 'goto') {
          for (const e of out.slice(i, j + 1)) drop(e, 'navigation replaced by a later goto');
          out = [...out.slice(0, i), ...out.slice(j + 1)];
          changed = true;
          break;
        }
      }
    }
  }
  return out;
}
