import { createHash } from 'node:crypto';
import * as fs from 'node:fs';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha256File(file: string): string {
  return sha256(fs.readFileSync(file));
}
