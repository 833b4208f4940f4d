// A file's lines as the loaders read them, a stream chunk at a time: the same lines, in the same order and with
// the same numbers, as Node's readline gives for the same bytes — LF, CRLF and a lone CR, a CRLF and a
// character of several bytes cut by the stream's chunk boundary, a last line with and without its break, and
// a zip's entry.
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openSource } from '../../src/ingest/source.js';
import { readText, real } from '../helpers/real-data.js';

/** The stream's chunk: 64 KiB a read. */
const CHUNK = 64 * 1024;

async function readlineLines(file: string): Promise<string[]> {
  const out: string[] = [];
  for await (const line of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  }))
    out.push(line);
  return out;
}

async function batchedLines(file: string): Promise<{ line: number; text: string }[]> {
  const source = await openSource(file);
  const out: { line: number; text: string }[] = [];
  for await (const batch of source.lineBatches()) out.push(...batch);
  return out;
}

describe('lines a chunk at a time', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, Buffer][] = [];
  // A CRLF cut between its CR and its LF by the first chunk's end.
  const crlfCut = Buffer.from(`${'a'.repeat(CHUNK - 1)}\r\nsecond\r\nthird`);
  cases.push(['a CRLF across the chunk boundary, no last break', crlfCut]);
  // A three-byte character (€) cut by the chunk's end.
  const euro = Buffer.concat([Buffer.from('x'.repeat(CHUNK - 1)), Buffer.from('€ price\nnext\n')]);
  cases.push(['a character of three bytes across the boundary, a last break', euro]);
  // Old Mac breaks, blank lines, a CR as the last byte, Windows breaks.
  cases.push(['lone CRs, blank lines and a CR last', Buffer.from('one\rtwo\r\rthree\n\nfour\r\nfive\r')]);
  cases.push(['a lone CR at the boundary, then text', Buffer.from(`${'b'.repeat(CHUNK - 1)}\rnext line\n`)]);
  cases.push(['nothing', Buffer.alloc(0)]);

  it.each(cases)('%s: the lines readline gives, numbered from 1', async (name, bytes) => {
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}.txt`);
    writeFileSync(file, bytes);
    const expected = await readlineLines(file);
    const lines = await batchedLines(file);
    expect(lines.map((l) => l.text)).toEqual(expected);
    expect(lines.map((l) => l.line)).toEqual(expected.map((_, i) => i + 1));
  });

  it("a zip's first entry: the lines readline gives for its text, one by one as in batches", async () => {
    const zip = real('cftc/fut_disagg_txt_2021_f_year.zip');
    const text = path.join(dir, 'entry.txt');
    writeFileSync(text, readText(zip));
    const expected = await readlineLines(text);
    expect(expected.length).toBeGreaterThan(1000);
    expect((await batchedLines(zip)).map((l) => l.text)).toEqual(expected);
    const source = await openSource(zip);
    const one: string[] = [];
    for await (const { text: line } of source.lines()) one.push(line);
    expect(one).toEqual(expected);
    // The checksum is of the zip's own bytes, complete once every line is read.
    expect(source.checksum()).toBe(createHash('sha256').update(readFileSync(zip)).digest('hex'));
  });
});
