// The sources' real files the tests read, all kept in the repository: the demo's bundle in assets/ and the
// rest in test/fixtures/real/ (laid out as the agencies' folders; test/fixtures/README.md names each file's
// origin). Large text files are kept zipped: the loaders read a zip's first entry as they read a plain file,
// and a test that reads such a file itself takes its text from readText.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

export const ASSETS = path.resolve('assets');
export const REAL = path.resolve('test/fixtures/real');

/** A file of the demo's bundle. */
export const asset = (...parts: string[]): string => path.join(ASSETS, ...parts);
/** A real file kept for the tests alone. */
export const real = (...parts: string[]): string => path.join(REAL, ...parts);

const ZIP_LOCAL = 0x04034b50;

/** A file's text: a plain file as it is, a zip's first entry inflated (read here, not by the loaders' code). */
export function readText(file: string): string {
  const bytes = readFileSync(file);
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== ZIP_LOCAL) return bytes.toString('utf8');
  const method = bytes.readUInt16LE(8);
  const compressed = bytes.readUInt32LE(18);
  const start = 30 + bytes.readUInt16LE(26) + bytes.readUInt16LE(28);
  const data = bytes.subarray(start, start + compressed);
  return (method === 0 ? data : inflateRawSync(data)).toString('utf8');
}
