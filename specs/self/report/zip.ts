export { readZip } from '../../../agent/evidence/zip';

export const isZip = (bytes: Buffer): boolean => bytes.length > 4 && bytes.readUInt32LE(0) === 0x04034b50;
