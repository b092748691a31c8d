import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Result } from '../../../agent/evidence/result-schema';
import { runDir } from '../../../agent/settings';
import { loadTaskFile } from '../../../agent/task/load-task';
import { writeRun } from '../../../agent/report/write-run';
import { readRunFile, sampleOf } from '../helpers/agent-env';
import { useEnv } from '../helpers/env';
import { SITE, SITE_HOST } from '../helpers/sites';
import { taskJson, tempDir } from '../helpers/temp';
import { runSampleAlone } from '../recipe/helpers';

/**
 * Page text that starts like a spreadsheet formula (OWASP: CSV injection), read by a recipe from the widget lab's
 * formula-cells page and laid out by the reporter: combined.csv neutralises it, a real negative number stays a
 * number, and result.json keeps every value exactly as read.
 */
interface FormulaTruth {
  note: string;
  code: string;
  tag: string;
  balance_number: number;
}

useEnv(() => ({ AGENT_REPORTS_DIR: tempDir('bwa-formulas-'), AGENT_RUN_ID: 'formulas', ANTHROPIC_API_KEY: undefined }));

test('values that would start a formula are neutralised in combined.csv, numbers stay numbers, result.json keeps the exact value', async ({
  browser,
  request,
}) => {
  const truth = ((await (await request.get(`${SITE.widgets}/__truth.json`)).json()) as { cases: Record<string, FormulaTruth> }).cases[
    'formula-cells'
  ]!;
  const file = path.join(tempDir('bwa-formula-task-'), 'ledger.json');
  fs.writeFileSync(
    file,
    JSON.stringify(
      taskJson({
        task_id: 'ledger',
        start_url: `${SITE.widgets}/formula-cells`,
        output_schema: { note: 'string', code: 'string', tag: 'string', balance: 'number' },
        input_schema: {},
        allowed_domains: [SITE_HOST.widgets],
        recipe: [
          { action: 'extract', field: 'note', target: { css: '#note' } },
          { action: 'extract', field: 'code', target: { css: '#code' } },
          { action: 'extract', field: 'tag', target: { css: '#tag' } },
          { action: 'extract', field: 'balance', target: { css: '#balance' }, type: 'number' },
        ],
      }),
    ),
  );
  const result = await runSampleAlone(browser, loadTaskFile(file), sampleOf({ sample_id: 'acct-1042' }), 'recipe');
  expect(result.status).toBe('done');

  // result.json, as the sample wrote it: every value exactly as read, the balance a number.
  const written = Result.parse(JSON.parse(readRunFile('ledger', 'acct-1042', 'result.json')));
  const values = Object.fromEntries(Object.entries(written.extracted).map(([field, f]) => [field, f.value]));
  expect(values).toEqual({ note: truth.note, code: truth.code, tag: truth.tag, balance: truth.balance_number });

  writeRun(runDir('formulas'), 'formulas', [{ result: written, files: new Map(), resumed: false }]);
  const csv = readRunFile('ledger', 'combined.csv');
  const [row] = parse(csv, { columns: true }) as Array<Record<string, string>>;
  // A leading ' makes a spreadsheet show the text instead of running it; the negative number is written as is.
  expect(row).toMatchObject({ note: `'${truth.note}`, code: `'${truth.code}`, tag: `'${truth.tag}`, balance: '-3.5' });
  expect(csv.split('\n')[1]).toBe(`acct-1042,done,"'=HYPERLINK(""http://evil.example"",""open"")",'+1,'@SUM(1),-3.5,${written.steps},0,`);
});
