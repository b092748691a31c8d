import { z } from 'zod';
import { defineAction } from './core/types';

const Data = z.record(z.string(), z.unknown());

export const done = defineAction({
  name: 'done',
  historyWeight: 3,
  terminal: true,
  productive: true,
  description: 'Finish with every output field and any judgment asked for.',
  verifies: "Nothing on the page: the task's required fields and artifacts are checked when the sample is finalised.",
  schema: z.object({
    extracted: Data.describe('Fields not already read with extract'),
    derived: z
      .record(z.string(), z.object({ value: z.unknown(), from: z.array(z.string()), rule: z.string() }))
      .optional()
      .describe('Fields computed from read ones (from: their names)'),
    judgment: Data.optional().describe('The judgment object'),
    note: z.string().optional().describe('For the reviewer'),
  }),
  async handle({ extracted, derived, judgment, note }) {
    const said = derived && Object.keys(derived).length ? `Marked done (derived: ${Object.keys(derived).join(', ')})` : 'Marked done';
    return { description: said, effects: { terminal: { kind: 'done', extracted, derived, judgment, note } } };
  },
});

export const fail = defineAction({
  name: 'fail',
  terminal: true,
  replay: 'never',
  description: 'Give up on this sample, saying why.',
  verifies: 'Nothing: records the reason.',
  schema: z.object({ reason: z.string().min(1).describe('Why') }),
  async handle({ reason }) {
    return { description: `Failed: ${reason}`, effects: { terminal: { kind: 'fail', reason } } };
  },
});

export const saveProgress = defineAction({
  name: 'save_progress',
  readsOnly: true,
  historyWeight: 3,
  endsBatch: true,
  collects: true,
  productive: true,
  description: 'Checkpoint data without stopping (arrays append, objects merge).',
  verifies: 'Nothing on the page: merges the data into the checkpoint.',
  schema: z.object({
    data: Data.describe('Data since the last save'),
    note: z.string().optional().describe('e.g. "2 of 5 done"'),
  }),
  async handle({ data, note }) {
    return { description: `Progress saved${note ? `: ${note}` : ''}`, effects: { progress: { data, note } } };
  },
});
