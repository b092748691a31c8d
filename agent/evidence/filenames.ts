const UNSAFE_CHARS = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;
const MAX_NAME_LENGTH = 80;

/**
 * Turns any string (a label from the model, a download name from a hostile server) into one safe path
 * segment: no separators, no control characters, no leading dots, bounded length.
 */
export function sanitizeFilename(raw: string, fallback = 'file'): string {
  const cleaned = raw
    .normalize('NFKC')
    .replace(UNSAFE_CHARS, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/\s+/g, '_')
    .replace(/^[._-]+/, '')
    .replace(/_+/g, '_');
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  const stem = (ext ? cleaned.slice(0, dot) : cleaned).slice(0, MAX_NAME_LENGTH - ext.length);
  const result = (stem + ext).replace(/^[._-]+/, '');
  return result.length > 0 && result !== ext ? result : fallback + ext;
}

export function sanitizeLabel(raw: string): string {
  return sanitizeFilename(raw.replace(/\.[a-z0-9]+$/i, ''), 'shot')
    .replace(/\./g, '_')
    .toLowerCase();
}
