import { z } from 'zod';
import { defineAction } from './types';

const Data = z.record(z.string(), z.unknown());

export const done = defineAction({
  name: 'done',
  description: 'Finish the sample: give every output field (null when absent on the page — never guess) and, in judgment mode, the judgment.',
  schema: z.object({
    extracted: Data.describe('Output fields; values read with extract are already recorded and need not be repeated'),
    judgment: Data.optional().describe('The judgment object, when the task asks for one'),
    note: z.string().optional().describe('Anything a reviewer should know'),
  }),
  async handle({ extracted, judgment, note }) {
    return { description: 'Marked done', effects: { terminal: { kind: 'done', extracted, judgment, note } } };
  },
});

export const fail = defineAction({
  name: 'fail',
  description: 'Give up on this sample, saying why (e.g. the page does not exist, access denied).',
  schema: z.object({ reason: z.string().min(1).describe('Why the task cannot be completed') }),
  async handle({ reason }) {
    return { description: `Failed: ${reason}`, effects: { terminal: { kind: 'fail', reason } } };
  },
});

export const saveProgress = defineAction({
  name: 'save_progress',
  description: 'Checkpoint partial data without stopping (merged with earlier saves: arrays append, objects merge).',
  schema: z.object({
    data: Data.describe('Data collected since the last save'),
    note: z.string().optional().describe('Progress note, e.g. "item 2 of 5 done"'),
  }),
  async handle({ data, note }) {
    return { description: `Progress saved${note ? `: ${note}` : ''}`, effects: { progress: { data, note } } };
  },
});
