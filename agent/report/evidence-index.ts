import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../fs/atomic';
import type { Artifact, Result } from '../evidence/result-schema';
import { placeOfRead } from '../loop/field-reads';
import { cellValue } from './csv';
import { escapeHtml, relativeHref, safeExternalHref, truncate } from './html-escape';
import { TRACE_FILE } from './traces';
import { MANIFEST_FILE, type Manifest, type ManifestFile } from './write-run';

export const INDEX_FILE = 'index.html';
const FIELD_SHOWN_CHARS = 300;
const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

export interface IndexedSample {
  result: Result;
  resumed: boolean;
  resumeNote?: string;
  traces: readonly ManifestFile[];
}

/**
 * The reporter's last step: the index of the run the manifest describes, each sample with the traces the manifest
 * lists for it. Returns problems to print; an index that cannot be written never costs the run its evidence.
 */
export function indexRun(
  runDir: string,
  manifest: Manifest,
  samples: ReadonlyArray<{ result: Result; resumed: boolean; resumeNote?: string }>,
): string[] {
  const traces = (result: Result) =>
    manifest.records
      .filter(r => r.task_id === result.task_id && r.sample_id === result.sample_id && TRACE_FILE.test(path.posix.basename(r.path)))
      .sort((a, b) => traceNumber(a.path) - traceNumber(b.path));
  try {
    writeEvidenceIndex(
      runDir,
      manifest,
      samples.map(({ result, resumed, resumeNote }) => ({ result, resumed, resumeNote, traces: traces(result) })),
    );
    return [];
  } catch (error) {
    return [`${INDEX_FILE}: not written — ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** trace.zip is the first attempt's, trace-N.zip the N-th. */
const traceNumber = (file: string) => Number(/trace-(\d+)\.zip$/.exec(file)?.[1] ?? 1);

/**
 * Writes reports/runs/<id>/index.html: one static page a reviewer opens straight from disk (or from a CI
 * artifact) — every sample with its status, fields, thumbnails, artifact hashes and links to its record and trace.
 * No script, no external asset; every page-derived string is escaped.
 */
export function writeEvidenceIndex(runDir: string, manifest: Manifest, samples: readonly IndexedSample[]): string {
  const file = path.join(runDir, INDEX_FILE);
  writeFileAtomic(file, renderEvidenceIndex(runDir, manifest, samples));
  return file;
}

export function renderEvidenceIndex(runDir: string, manifest: Manifest, samples: readonly IndexedSample[]): string {
  const byTask = new Map<string, IndexedSample[]>();
  for (const sample of [...samples].sort((a, b) => a.result.sample_id.localeCompare(b.result.sample_id))) {
    byTask.set(sample.result.task_id, [...(byTask.get(sample.result.task_id) ?? []), sample]);
  }
  const { counts } = manifest;
  const tasks = [...byTask.keys()].sort();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'">
<title>Evidence — run ${escapeHtml(manifest.run_id)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Evidence — run <code>${escapeHtml(manifest.run_id)}</code></h1>
<p class="summary" id="summary">${counts.total} sample${counts.total === 1 ? '' : 's'} — ${counts.done} done, ${counts.partial_success} partial, ${counts.needs_review} needs review, ${counts.failed} failed${counts.resumed ? ` (${counts.resumed} resumed)` : ''}</p>
<p class="meta">Generated ${escapeHtml(manifest.generated_at)} · <a href="${MANIFEST_FILE}">manifest.json</a> (every artifact's SHA-256; check with <code>npx bwa verify ${escapeHtml(manifest.run_id)}</code>)${tasks.map(t => ` · <a href="${relativeHref(`${t}/combined.csv`)}">${escapeHtml(t)}/combined.csv</a>`).join('')}</p>
${manifest.problems.length ? `<section class="problems"><h2>Problems</h2><ul>${manifest.problems.map(p => `<li>${escapeHtml(p)}</li>`).join('')}</ul></section>` : ''}
</header>
<main>
${tasks.map(task => taskSection(runDir, task, byTask.get(task) ?? [])).join('\n')}
</main>
</body>
</html>
`;
}

function taskSection(runDir: string, task: string, samples: readonly IndexedSample[]): string {
  return `<section class="task" id="task-${escapeHtml(task)}">
<h2>${escapeHtml(task)} <span class="count">${samples.length} sample${samples.length === 1 ? '' : 's'}</span></h2>
<table>
<thead><tr><th>Sample</th><th>Status</th><th>Fields</th><th>Screenshots</th><th>Artifacts (SHA-256)</th><th>Record</th></tr></thead>
<tbody>
${samples.map(sample => sampleRow(runDir, sample)).join('\n')}
</tbody>
</table>
</section>`;
}

function sampleRow(runDir: string, { result, resumed, resumeNote, traces }: IndexedSample): string {
  const folder = `${result.task_id}/${result.sample_id}`;
  const fileHref = (name: string) => relativeHref(`${folder}/${name}`);
  const screenshots = result.artifacts.filter(a => a.kind === 'screenshot' && IMAGE_EXTENSIONS.test(a.filename));
  const record = [`<a class="result-link" href="${fileHref('result.json')}">result.json</a>`];
  for (const extra of ['action_log.json', 'checkpoint.json'])
    if (fs.existsSync(path.join(runDir, result.task_id, result.sample_id, extra))) record.push(`<a href="${fileHref(extra)}">${extra}</a>`);
  for (const trace of traces) {
    record.push(
      `<a class="trace-link" href="${relativeHref(trace.path)}">${escapeHtml(path.posix.basename(trace.path))}</a> <code class="sha" title="SHA-256 of the trace">${trace.sha256.slice(0, 12)}…</code>`,
    );
  }
  if (traces.length) record.push(`<span class="hint">from this folder: <code>npx playwright show-trace ${escapeHtml(traces[0]?.path)}</code></span>`);
  const error = result.status !== 'done' && result.error ? `<p class="error">${escapeHtml(truncate(result.error, 400))}</p>` : '';
  return `<tr class="sample" id="${escapeHtml(`sample-${result.task_id}-${result.sample_id}`)}" data-sample="${escapeHtml(result.sample_id)}" data-status="${escapeHtml(result.status)}">
<th scope="row">${escapeHtml(result.sample_id)}${inputLine(result)}</th>
<td><span class="status status-${escapeHtml(result.status)}">${escapeHtml(result.status.replace('_', ' '))}</span>${resumed ? `<br><small class="resumed">resumed${resumeNote ? ` — ${escapeHtml(resumeNote)}` : ''}</small>` : ''}<br><small>${result.steps} steps · ${escapeHtml(result.decider)}</small>${error}</td>
<td>${fieldList(result)}</td>
<td class="thumbs">${screenshots.map(a => `<a href="${fileHref(a.filename)}"><img class="thumb" src="${fileHref(a.filename)}" alt="${escapeHtml(a.label ?? a.filename)}" title="${escapeHtml(a.filename)}"></a>`).join('')}</td>
<td><ul class="artifacts">${result.artifacts.map(a => artifactItem(a, fileHref(a.filename))).join('')}</ul></td>
<td class="record">${record.join('<br>')}</td>
</tr>`;
}

function inputLine(result: Result): string {
  const inputs = Object.entries(result.input).filter(([column]) => column !== 'sample_id');
  if (!inputs.length) return '';
  return `<br><small class="inputs">${inputs.map(([k, v]) => `${escapeHtml(k)}=${escapeHtml(truncate(v, 80))}`).join(' · ')}</small>`;
}

function fieldList(result: Result): string {
  const rows = result.output_fields.map(field => {
    const extracted = result.extracted[field];
    const failed = result.failed_steps?.find(step => step.field === field);
    if (!extracted && failed)
      return `<dt>${escapeHtml(field)}</dt><dd class="missing" data-field="${escapeHtml(field)}">— <small class="why">recipe step ${failed.step} failed: ${escapeHtml(truncate(failed.reason, FIELD_SHOWN_CHARS))}</small></dd>`;
    if (!extracted) return `<dt>${escapeHtml(field)}</dt><dd class="missing">—</dd>`;
    const value = cellValue(extracted.value);
    const source = extracted.provenance.source;
    return `<dt>${escapeHtml(field)}</dt><dd data-field="${escapeHtml(field)}">${value === '' ? '<span class="missing">null</span>' : escapeHtml(truncate(value, FIELD_SHOWN_CHARS))} <span class="src src-${escapeHtml(source)}" title="${escapeHtml(provenanceTitle(extracted.provenance))}">${escapeHtml(source)}</span>${provenanceDetail(extracted.provenance)}${readList(extracted)}</dd>`;
  });
  return rows.length ? `<dl>${rows.join('')}</dl>` : '';
}

function provenanceTitle(provenance: Result['extracted'][string]['provenance']): string {
  const derived = provenance.rule
    ? `derived: ${provenance.rule} — from ${(provenance.sources ?? []).map(s => `${s.field} = ${truncate(cellValue(s.value), 60)} (${s.source})`).join(', ')}`
    : undefined;
  return [
    derived,
    provenance.url,
    provenance.locator ?? provenance.key,
    provenance.text ? `read from ${JSON.stringify(provenance.text)}` : undefined,
    provenance.reading,
    provenance.note ? `note: ${provenance.note}` : undefined,
    provenance.step === undefined ? undefined : `step ${provenance.step}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A derived value says so beside it, with its rule; a stated one, that a person should check it. */
function provenanceDetail(provenance: Result['extracted'][string]['provenance']): string {
  if (provenance.source === 'derived' && provenance.rule)
    return ` <small class="derived">= ${escapeHtml(truncate(provenance.rule, 120))} (from ${escapeHtml((provenance.sources ?? []).map(s => s.field).join(', '))})</small>`;
  if (provenance.source === 'stated') return ' <small class="stated">stated, not read from the page — check it</small>';
  return '';
}

/** A field read more than once lists every read, and says when they disagree and how that was settled. */
function readList(extracted: Result['extracted'][string]): string {
  const reads = extracted.reads ?? [];
  if (reads.length < 2) return '';
  const items = reads.map(
    (read, index) =>
      `<li${index === extracted.disagreement?.kept ? ' class="kept"' : ''}>${escapeHtml(truncate(cellValue(read.value), 80))} <span class="src src-${escapeHtml(read.provenance.source)}">${escapeHtml(read.provenance.source)}</span> <small>${escapeHtml(truncate(placeOfRead(read.provenance), 80))}${read.provenance.step === undefined ? '' : ` · step ${read.provenance.step}`}</small></li>`,
  );
  const disagreement = extracted.disagreement
    ? `<small class="disagree">reads disagree — ${escapeHtml(extracted.disagreement.rule === 'review' ? 'for review' : `rule "${extracted.disagreement.rule}"`)}</small>`
    : '';
  return `${disagreement}<ul class="reads" title="every read of this field">${items.join('')}</ul>`;
}

function artifactItem(artifact: Artifact, href: string): string {
  const source = safeExternalHref(artifact.source_url);
  const note = artifact.note ? `<br><small class="note">${escapeHtml(artifact.note)}</small>` : '';
  return `<li><a href="${href}">${escapeHtml(artifact.filename)}</a> <small>${artifact.bytes.toLocaleString('en')} B</small><br><code class="sha">${escapeHtml(artifact.sha256)}</code>${source ? `<br><small>from <a href="${source}" rel="noreferrer noopener">${escapeHtml(truncate(artifact.source_url, 80))}</a></small>` : ''}${note}</li>`;
}

const STYLE = `
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#fff}
header{padding:16px 24px;background:#f6f8fa;border-bottom:1px solid #d0d7de}
h1{margin:0 0 6px;font-size:20px}h2{font-size:17px;margin:24px 0 8px}.count{color:#656d76;font-weight:400;font-size:13px}
main{padding:0 24px 32px}.meta{color:#656d76;margin:4px 0}.summary{margin:4px 0;font-weight:600}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d0d7de;padding:8px;vertical-align:top;text-align:left}
thead th{background:#f6f8fa;position:sticky;top:0}
.status{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;white-space:nowrap}
.status-done{background:#dafbe1;color:#116329}.status-partial_success{background:#fff8c5;color:#7d4e00}
.status-needs_review{background:#ddf4ff;color:#0550ae}.status-failed{background:#ffebe9;color:#a40e26}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:2px 10px}dt{font-weight:600}dd{margin:0;word-break:break-word}
.derived,.stated{display:block;color:#656d76}.disagree{display:block;color:#a40e26;font-weight:600}
.reads{margin:2px 0 0;padding-left:16px;color:#57606a}.reads .kept{font-weight:600}.src-derived,.src-stated{border-color:#d4a72c}
.src{font-size:11px;color:#656d76;border:1px solid #d0d7de;border-radius:4px;padding:0 3px}.missing{color:#8c959f}
.thumb{width:160px;max-height:120px;object-fit:cover;object-position:top;border:1px solid #d0d7de;border-radius:4px;margin:0 4px 4px 0}
.artifacts{margin:0;padding-left:16px}.sha{font-size:11px;word-break:break-all;color:#57606a}
.error{color:#a40e26;margin:6px 0 0;max-width:320px}.hint{color:#656d76;font-size:12px}
.problems{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:4px 12px;margin-top:8px}
`;
