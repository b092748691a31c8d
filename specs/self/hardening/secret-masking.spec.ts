import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ActionLogEntry, Result } from '../../../agent/evidence/result-schema';
import { EvidenceStore } from '../../../agent/evidence/store';
import { SampleRecorder } from '../../../agent/loop/recorder';
import { SecretMasker } from '../../../agent/secrets/masker';
import { loadTaskFile } from '../../../agent/task/load-task';
import { bundledTask, readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { runBwaInProcess } from '../helpers/cli';
import { AUDIT_USER, ECHOED_PASSWORD, echoedForms, LEDGER_PIN, serveSecretEcho } from '../helpers/secret-echo';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';

/** Each form as a page showed it, and as JSON carries it (escaped once or twice): what no written or sent byte may hold. */
function needles(value: string): string[] {
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  return [...new Set(echoedForms(value).flatMap(form => [form, escaped(form), escaped(escaped(form))]))];
}
const holds = (text: string, value: string) => needles(value).filter(needle => text.includes(needle));

test.describe('catalogue: secrets masked by structure, no sample lost', () => {
  test('number-like, key-like, quote/backslash and short secrets: result.json, the action log and the checkpoint are written, parse and keep their keys, numbers and ids', () => {
    const secrets = { LEDGER_PIN, STATUS_WORD: 'status', VALUE_WORD: 'value', DOM_WORD: 'dom', PASSWORD: 'pa"ss\\word9', TINY: 'ab' };
    const dir = tempDir('bwa-masked-record-');
    const task = bundledTask('people_profile', {
      task_id: 'ledger',
      output_schema: { total: 'number', status: 'string', pin: 'number', note: 'string' },
      required_fields: [],
    });
    const recorder = new SampleRecorder({
      task,
      sample: sampleOf({ sample_id: 'inv', username: 'ada' }),
      runId: 'r',
      attempt: 0,
      decider: 'recipe',
      store: new EvidenceStore(dir, SecretMasker.of(secrets)),
    });
    const at = new Date().toISOString();
    const read = (preview: string, step: number) => ({ source: 'dom' as const, preview, locator: 'css=p', step, at });
    recorder.setField('total', 1234.5, read('Invoice total: 1234.50', 1));
    recorder.setField('status', 'open', read('status: open', 2));
    recorder.setField('pin', 1234, read(`Your PIN is ${LEDGER_PIN}`, 3));
    recorder.setField('note', 'Password reset to pa"ss\\word9 ab', read('Password reset to pa"ss\\word9 ab', 4));
    const entry: ActionLogEntry = {
      step: 1,
      timestamp: at,
      decider: 'recipe',
      action: { name: 'extract', args: { field: 'status', target: { text: 'status' } } },
      outcome: { success: true, description: 'extracted status = "open" (value: status)' },
      locator: { text: 'status' },
      url_after: `http://ledger.test/?p=${encodeURIComponent('pa"ss\\word9')}&n=1234`,
      duration_ms: 1234,
    };
    recorder.record(entry);
    const result = recorder.finish('done');

    const written = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8')) as Result;
    expect(written).toEqual(result);
    // Numbers stay numbers; a number that is the PIN keeps its mask and the sample says so, naming the field.
    expect(written.extracted.total!.value).toBe(1234.5);
    expect(written.extracted.total!.provenance.preview).toBe('Invoice total: 1234.50');
    expect(written.extracted.pin!.value).toBe('{{secret:LEDGER_PIN}}');
    expect(written.extracted.note!.value).toBe('Password reset to {{secret:PASSWORD}} ab');
    expect(written.status).toBe('needs_review');
    expect(written.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pin: the value read held \{\{secret:LEDGER_PIN\}\}/),
        expect.stringMatching(/^note: the value read held \{\{secret:PASSWORD\}\}/),
      ]),
    );
    expect(written.notes.some(note => note.startsWith('total') || note.startsWith('status'))).toBe(false);
    // Keys and bwa's own ids are never masked: "status", "value" and "dom" as secrets change no key, enum or field name.
    expect(Object.keys(written.extracted).sort()).toEqual(['note', 'pin', 'status', 'total']);
    expect(written.output_fields).toEqual(['total', 'status', 'pin', 'note']);
    expect(written.extracted.status!.value).toBe('open');
    expect(written.extracted.status!.provenance.source).toBe('dom');
    expect(written.extracted.status!.provenance.preview).toBe('{{secret:STATUS_WORD}}: open');

    const log = JSON.parse(fs.readFileSync(path.join(dir, 'action_log.json'), 'utf8')) as ActionLogEntry[];
    expect(log[0]!.action).toEqual({ name: 'extract', args: { field: 'status', target: { text: '{{secret:STATUS_WORD}}' } } });
    expect(log[0]!.duration_ms).toBe(1234);
    expect(log[0]!.url_after).toBe('http://ledger.test/?p={{secret:PASSWORD}}&n={{secret:LEDGER_PIN}}');
    expect(log[0]!.outcome.description).toBe('extracted {{secret:STATUS_WORD}} = "open" ({{secret:VALUE_WORD}}: {{secret:STATUS_WORD}})');
    const checkpoint = JSON.parse(fs.readFileSync(path.join(dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.status).toBe('needs_review');
    expect(checkpoint.accumulated_data.total).toBe(1234.5);
    // A secret shorter than three characters is never masked (any text holds it): `bwa validate` says so.
    expect(written.extracted.note!.value).toContain(' ab');
    for (const file of ['result.json', 'action_log.json', 'checkpoint.json'])
      expect(holds(fs.readFileSync(path.join(dir, file), 'utf8'), 'pa"ss\\word9'), file).toEqual([]);
  });

  test("bwa validate names a secret that is short, a plain number or word, or in the task's own text — never its value — with the remedy", async () => {
    const dir = tempDir('bwa-validate-secrets-');
    writeFiles(dir, {
      'audit.json': JSON.stringify(
        taskJson({
          task_id: 'audit',
          system_prompt: 'You are a careful compliance auditor.',
          goal: 'Sign in with {{secret:WIKI_USER}} and {{secret:LEDGER_PIN}}, type {{secret:API_TOKEN}}, then read the page.',
          recipe: [{ action: 'screenshot', label: 'page' }],
        }),
      ),
      'inputs/audit.csv': 'sample_id,username\nada,ada\n',
    });
    const run = await runBwaInProcess(['validate'], {
      AGENT_TASKS_DIR: dir,
      SECRET_WIKI_USER: 'auditor',
      SECRET_LEDGER_PIN: '1234',
      SECRET_API_TOKEN: 'tok-9f8e7d6c5b4a',
      ANTHROPIC_API_KEY: undefined,
    });
    expect(run.code).toBe(0);
    const remedy = (name: string) =>
      `if it needs no secrecy (a sign-in user name), write {{env:${name}}} and set ENV_${name}=… instead; if it does, give it a longer value that is no word or number`;
    expect(run.printed).toContain(
      `  ⚠ secret WIKI_USER is an ordinary word (letters only): wherever a page, log or prompt shows that word it is masked — ${remedy('WIKI_USER')}`,
    );
    expect(run.printed).toContain(
      `  ⚠ secret WIKI_USER appears in the task's own text (system_prompt): that text reaches the model as written, while the same word on a page is masked — ${remedy('WIKI_USER')}`,
    );
    expect(run.printed).toContain(
      `  ⚠ secret LEDGER_PIN is a plain number: every page number, log line or prompt that shows that number on its own is masked — ${remedy('LEDGER_PIN')}`,
    );
    expect(run.printed).not.toContain('API_TOKEN ');
    expect(run.printed).not.toMatch(/auditor[^.]|1234|tok-9f8e7d6c5b4a/);
  });
});

test.describe('catalogue: a page echoing secrets in every encoding', () => {
  const model = useScriptedModel({ SECRET_LEDGER_PASSWORD: ECHOED_PASSWORD, SECRET_LEDGER_PIN: LEDGER_PIN, SECRET_AUDIT_USER: AUDIT_USER });

  test("what reaches the model and every record: no form of a secret; the author's words as written; the amount intact; the PIN read kept masked and sent to review", async ({
    agent,
  }) => {
    const site = await serveSecretEcho();
    try {
      const file = path.join(tempDir('bwa-echo-task-'), 'ledger_echo.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          task_id: 'ledger_echo',
          start_url: site.url,
          system_prompt: 'You are a careful compliance auditor. Read the ledger.',
          goal: 'Type {{secret:LEDGER_PASSWORD}} into the password field, then read the invoice total and the PIN note.',
          output_schema: { total: 'number', pin_note: 'string' },
          allowed_domains: [site.host],
        }),
      );
      model.server.setScript('ledger_echo', 'inv', {
        steps: [
          { tool: 'type', target: { role: 'textbox', name: 'Password' }, args: { text: '{{secret:LEDGER_PASSWORD}}' } },
          { tool: 'extract', target: { text: 'Invoice total' }, args: { field: 'total', pattern: '([\\d.]+)', type: 'number' } },
          { tool: 'extract', target: { text: 'Your PIN is' }, args: { field: 'pin_note' } },
          { tool: 'done', args: { extracted: {} } },
        ],
      });
      const result = await agent.run(loadTaskFile(file), sampleOf({ sample_id: 'inv' }));
      expect(model.server.errors).toEqual([]);

      expect(result.extracted.total!.value).toBe(1234.5);
      expect(result.extracted.pin_note!.value).toBe('Your PIN is {{secret:LEDGER_PIN}}');
      expect(result.status).toBe('needs_review');
      expect(result.notes.some(note => note.startsWith('pin_note: the value read held {{secret:LEDGER_PIN}}'))).toBe(true);

      const decisions = model.server.requests.filter(r => r.kind === 'decider');
      const afterTyping = decisions[1]!.lastUserText;
      // The page echoed the password: the agent saw each echo line, with the placeholder where the password was.
      expect(afterTyping).toContain('As character references: {{secret:LEDGER_PASSWORD}}');
      expect(afterTyping).toContain('Form-encoded: p={{secret:LEDGER_PASSWORD}}');
      // The page's own words: the amount as it stands, the signed-in user masked…
      expect(afterTyping).toContain('Invoice total: 1234.50');
      expect(afterTyping).toContain(`Signed in as`);
      expect(afterTyping).toContain('{{secret:AUDIT_USER}}');
      expect(afterTyping).not.toContain(`Your PIN is ${LEDGER_PIN}`);
      // …and the author's words as written, though "auditor" is a secret too.
      for (const request of decisions)
        expect(request.system.map(block => block.text).join('\n')).toContain('You are a careful compliance auditor. Read the ledger.');

      const sent = JSON.stringify(model.server.requests);
      const records = ['action_log.json', 'checkpoint.json', 'result.json'].map(name => readRunFile('ledger_echo', 'inv', name));
      for (const text of [sent, ...records]) {
        expect(holds(text, ECHOED_PASSWORD)).toEqual([]);
        expect(text).not.toContain(`PIN is ${LEDGER_PIN}`);
      }
      expect(records.join('\n')).not.toMatch(new RegExp(`\\b${AUDIT_USER}\\b`));
    } finally {
      await site.close();
    }
  });
});
