import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic, writeJsonAtomic, writeStreamAtomic } from '../fs/atomic';
import { sanitizeFilename, sanitizeLabel } from './filenames';
import { sha256 } from './hash';
import { noMasking, type IdentifierPaths, type SecretMasker } from '../secrets/masker';
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
    readonly masker: SecretMasker = noMasking,
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
    const name = `${this.nextPrefix()}_${sanitizeLabel(this.masker.text(label))}.png`;
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
    const name = `${this.nextPrefix()}_${sanitizeFilename(this.masker.text(suggestedName))}`;
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
    const name = `${this.nextPrefix()}_${sanitizeFilename(this.masker.text(suggestedName), 'download')}`;
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

  /**
   * JSON files (result, log, checkpoint) are not artifacts: they are rewritten, so they carry no hash. Their string
   * values are masked, but for the identifier paths named (bwa's own ids and enums, never page data).
   */
  writeJson(filename: string, value: unknown, identifiers: IdentifierPaths = []): string {
    const file = this.pathOf(filename);
    writeJsonAtomic(file, this.masker.value(value, identifiers));
    return file;
  }

  /** JSON its owner has masked already, and validated after (result.json): written exactly as checked. */
  writeMaskedJson(filename: string, masked: unknown): string {
    const file = this.pathOf(filename);
    writeJsonAtomic(file, masked);
    return file;
  }

  private nextPrefix(): string {
    this.counter += 1;
    return String(this.counter).padStart(2, '0');
  }

  private async register(partial: Omit<Artifact, 'timestamp'>): Promise<Artifact> {
    const artifact: Artifact = {
      ...partial,
      ...(partial.label === undefined ? {} : { label: this.masker.text(partial.label) }),
      source_url: this.masker.text(partial.source_url),
      timestamp: new Date().toISOString(),
    };
    this.artifacts.push(artifact);
    for (const listener of this.listeners) await listener(artifact, this.pathOf(artifact.filename));
    return artifact;
  }
}
