import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic, writeJsonAtomic, writeStreamAtomic } from '../fs/atomic';
import { sanitizeFilename, sanitizeLabel } from './filenames';
import { sha256 } from './hash';
import { noRedaction, type Redactor } from './redact';
import type { Artifact } from './result-schema';

export type ArtifactListener = (artifact: Artifact, absolutePath: string) => void | Promise<void>;

/**
 * One sample attempt's evidence folder. Every file goes through here so that naming (NN_label),
 * hashing (at write time, of the bytes written) and atomicity are the same for all of them.
 */
export class EvidenceStore {
  readonly artifacts: Artifact[] = [];
  private counter = 0;
  private listeners: ArtifactListener[] = [];

  constructor(
    readonly dir: string,
    readonly redactor: Redactor = noRedaction,
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  onArtifact(listener: ArtifactListener): void {
    this.listeners.push(listener);
  }

  pathOf(filename: string): string {
    return path.join(this.dir, filename);
  }

  async saveScreenshot(bytes: Uint8Array, label: string, sourceUrl: string, note?: string): Promise<Artifact> {
    const name = `${this.nextPrefix()}_${sanitizeLabel(label)}.png`;
    writeFileAtomic(this.pathOf(name), bytes);
    return this.register({
      filename: name,
      sha256: sha256(bytes),
      bytes: bytes.byteLength,
      kind: 'screenshot',
      label,
      source_url: sourceUrl,
      ...(note ? { note } : {}),
    });
  }

  async saveBytes(bytes: Uint8Array, suggestedName: string, sourceUrl: string, kind: Artifact['kind'] = 'file'): Promise<Artifact> {
    const name = `${this.nextPrefix()}_${sanitizeFilename(suggestedName)}`;
    writeFileAtomic(this.pathOf(name), bytes);
    return this.register({ filename: name, sha256: sha256(bytes), bytes: bytes.byteLength, kind, label: suggestedName, source_url: sourceUrl });
  }

  /** Streams bytes in (downloads can be large, and may come from a browser on another machine), hashing the same bytes it writes. */
  async saveFromStream(
    source: AsyncIterable<Uint8Array>,
    suggestedName: string,
    sourceUrl: string,
    kind: Artifact['kind'] = 'download',
  ): Promise<Artifact> {
    const name = `${this.nextPrefix()}_${sanitizeFilename(suggestedName, 'download')}`;
    const hash = createHash('sha256');
    let bytes = 0;
    async function* hashed(): AsyncIterable<Uint8Array> {
      for await (const chunk of source) {
        hash.update(chunk);
        bytes += chunk.byteLength;
        yield chunk;
      }
    }
    await writeStreamAtomic(this.pathOf(name), hashed());
    return this.register({ filename: name, sha256: hash.digest('hex'), bytes, kind, label: suggestedName, source_url: sourceUrl });
  }

  /** JSON files (result, log, checkpoint) are not artifacts: they are rewritten, so they carry no hash. */
  writeJson(filename: string, value: unknown): string {
    const file = this.pathOf(filename);
    writeJsonAtomic(file, this.redactor.json(value));
    return file;
  }

  private nextPrefix(): string {
    this.counter += 1;
    return String(this.counter).padStart(2, '0');
  }

  private async register(partial: Omit<Artifact, 'timestamp'>): Promise<Artifact> {
    const artifact: Artifact = { ...partial, source_url: this.redactor.text(partial.source_url), timestamp: new Date().toISOString() };
    this.artifacts.push(artifact);
    for (const listener of this.listeners) await listener(artifact, this.pathOf(artifact.filename));
    return artifact;
  }
}
