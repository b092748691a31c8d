import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256File } from '../../../agent/evidence/hash';
import { sanitizeFilename } from '../../../agent/evidence/filenames';
import { dispatch } from '../../../agent/actions/core/dispatch';
import { expect, test, WIDGETS } from './harness';

interface DownloadTruth {
  hostile_csv: { sha256: string; bytes: number; content_disposition_filename: string };
  report_pdf: { sha256: string; bytes: number };
  announced_oversized: { filename: string; bytes: number };
  streamed_oversized: { filename: string; bytes: number };
}

async function downloadTruth(request: { get(url: string): Promise<{ json(): Promise<unknown> }> }): Promise<DownloadTruth> {
  const truth = (await (await request.get(`${WIDGETS}/__truth.json`)).json()) as { cases: { download: DownloadTruth } };
  return truth.cases.download;
}

test.describe('download', () => {
  test('a hostile Content-Disposition name is sanitised inside the evidence folder; the file is hashed', async ({ harness, request }) => {
    const truth = await downloadTruth(request);
    await harness.ok('goto', { url: `${WIDGETS}/download` });
    await harness.look();
    const result = await harness.ok('download', { target: harness.ref('link', 'Export contacts (CSV)') });
    const artifact = result.effects?.artifact;
    expect(artifact).toMatchObject({ kind: 'download', sha256: truth.hostile_csv.sha256, bytes: truth.hostile_csv.bytes });
    const filename = artifact!.filename;
    expect(filename).toMatch(/^\d\d_[\w.-]+\.csv$/);
    expect(filename).not.toMatch(/\.\.|[/\\\u0000-\u001f]/);
    const stored = harness.store.pathOf(filename);
    expect(path.dirname(stored)).toBe(harness.store.dir);
    expect(sha256File(stored)).toBe(truth.hostile_csv.sha256);
    expect(result.description).toContain(`Downloaded ${filename}`);
  });

  test('the filename sanitiser strips separators, dot-dot and control characters', () => {
    for (const hostile of ['../../etc/passwd\u0007.csv', '..\\..\\boot.ini', '\u0000\u001b[31m.bashrc', '/etc/shadow', '....//....//x.pdf']) {
      const safe = sanitizeFilename(hostile, 'download');
      expect(safe).not.toMatch(/\.\.|[/\\\u0000-\u001f\u007f]/);
      expect(safe).not.toMatch(/^[.]/);
      expect(path.basename(safe)).toBe(safe);
    }
  });

  test('a normal file keeps its name', async ({ harness, request }) => {
    const truth = await downloadTruth(request);
    await harness.ok('goto', { url: `${WIDGETS}/download` });
    const result = await harness.ok('download', { target: 'Quarterly report (PDF)' });
    expect(result.effects?.artifact).toMatchObject({ filename: '01_report.pdf', sha256: truth.report_pdf.sha256, bytes: truth.report_pdf.bytes });
  });

  test('a download that never finishes fails cleanly within its timeout and is cancelled', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/download` });
    // A dispatcher timeout shorter than the download's own budget stretches to it, so the download is cancelled by its owner.
    const result = await harness.act('download', { target: 'Full archive (ZIP, 10 MB)', timeout_seconds: 3 }, { timeoutMs: 1_000 });
    expect(result).toMatchObject({ success: false, infra: true });
    expect(result.error).toBe(
      'The download of "archive.zip" did not finish within 3s and was cancelled — the server may be stalled; try again later',
    );
    expect(harness.store.artifacts).toHaveLength(0);
    expect(fs.readdirSync(harness.store.dir)).toEqual([]);
  });

  test('a download over the size cap is stopped and reported, its size announced or only counted; nothing of it is left', async ({
    harness,
    request,
  }) => {
    const truth = await downloadTruth(request);
    await harness.ok('goto', { url: `${WIDGETS}/download` });
    const MiB = 1024 * 1024;
    const capped = () => ({ ...harness.env(), policy: { ...harness.policy, maxDownloadBytes: MiB } });
    const cases = [
      { link: 'Sensor dump (BIN, 3 MB)', file: truth.announced_oversized, how: `its server announced ${(3 * MiB).toLocaleString('en')} bytes` },
      { link: 'Event log (TXT, size unknown)', file: truth.streamed_oversized, how: 'its bytes passed it' },
    ];
    for (const { link, file, how } of cases) {
      expect(file.bytes).toBeGreaterThan(MiB);
      const result = await dispatch({ name: 'download', args: { target: link } }, capped());
      expect(result).toMatchObject({ success: false, infra: false });
      expect(result.error).toBe(
        `The download of "${file.filename}" is larger than the size cap of 1 MiB (${how}) and was stopped; nothing of it was kept — AGENT_DOWNLOAD_MAX_MB raises the cap`,
      );
    }
    expect(harness.store.artifacts).toEqual([]);
    expect(fs.readdirSync(harness.store.dir)).toEqual([]);
    // Under the cap (the default, 100 MiB) the same file is kept whole.
    const kept = await harness.ok('download', { target: 'Event log (TXT, size unknown)' });
    expect(kept.effects?.artifact).toMatchObject({ filename: expect.stringMatching(/^\d\d_event-log\.txt$/), bytes: truth.streamed_oversized.bytes });
  });

  test('an element that does not download says so', async ({ harness }) => {
    await harness.open('nothing', '<button>Export</button>');
    const result = await harness.act('download', { target: 'Export', timeout_seconds: 2 });
    expect(result).toMatchObject({ success: false });
    expect(result.error).toContain('No download started within 2s');
  });
});

test.describe('upload', () => {
  test('a file from the input folder is attached and sent', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/upload` });
    await harness.look();
    const result = await harness.ok('upload', { target: harness.ref('button', 'Attachments'), files: ['receipt.txt'] });
    expect(result.description).toMatch(/^Attached receipt\.txt to /);
    await expect(page.locator('#result')).toHaveText('Chosen: receipt.txt');
    await harness.ok('click', { target: 'Upload' });
    await expect(page.locator('#result')).toHaveText(/^Uploaded: receipt\.txt \(15 bytes, sha256 [0-9a-f]{12}\)$/);
  });

  test('paths out of the input folder are refused: .., absolute, and symlinks', async ({ harness, page }, testInfo) => {
    await harness.ok('goto', { url: `${WIDGETS}/upload` });
    const outside = testInfo.outputPath('outside.txt');
    fs.writeFileSync(outside, 'not for upload');
    fs.symlinkSync(outside, path.join(harness.policy.inputDir, 'link.txt'));
    fs.symlinkSync(path.dirname(outside), path.join(harness.policy.inputDir, 'parent'));
    for (const file of ['../outside.txt', outside, '/etc/passwd', 'link.txt', 'parent/outside.txt', 'sub/../../outside.txt']) {
      const result = await harness.act('upload', { target: 'Attachments', files: [file] });
      expect(result, file).toMatchObject({ success: false, infra: false });
      expect(result.error, file).toMatch(/^Refused: .* (is outside|links to a file outside) the task's input folder/);
    }
    await expect(page.locator('#result')).toHaveText('No file chosen');
  });

  test('a missing file lists what the input folder has', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/upload` });
    const result = await harness.act('upload', { target: 'Attachments', files: ['invoice.pdf'] });
    expect(result.error).toBe('There is no file "invoice.pdf" in the task\'s input folder; it has: "receipt.txt"');
  });

  test('a button that opens a file chooser works too', async ({ harness, page }) => {
    await harness.open(
      'chooser',
      `<input type="file" id="f" hidden><button onclick="document.getElementById('f').click()">Choose receipt</button>
      <output id="out"></output><script>f.onchange = () => out.textContent = f.files[0].name</script>`,
    );
    await harness.ok('upload', { target: 'Choose receipt', files: ['receipt.txt'] });
    await expect(page.locator('#out')).toHaveText('receipt.txt');
  });
});
