// Reading an agency's file as lines, streamed: plain text or the first entry of a .zip (stored or deflated),
// CRLF or LF. While reading it hashes the raw bytes (the file's checksum) and counts them for progress.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';

export class SourceError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    reason: string,
  ) {
    super(line === null ? `${file}: ${reason}` : `${file}:${line}: ${reason}`);
    this.name = 'SourceError';
  }
}

export interface SourceFile {
  name: string;
  /** The path it was opened from. */
  path: string;
  size: number;
  /** The first bytes of the file (up to 64 KiB), to tell formats and kinds of file apart. */
  head: Buffer;
  /** SHA-256 of the file's bytes; complete once every line has been read. */
  checksum(): string;
  /** How much of the file has been read, 0 to 1: bytes streamed, or the reader's own count (advance). */
  share(): number;
  /** For a reader that takes the whole file at once (a workbook): `done` of `total` of its rows walked. */
  advance(done: number, total: number): void;
  lines(): AsyncGenerator<SourceLine>;
  /** The same lines a read of the stream at a time: a reader of millions of rows loops over each batch. */
  lineBatches(): AsyncGenerator<SourceLine[]>;
}

/**
 * A line of a file. `unterminated` marks a last line with no line break after it: many agencies' files end so,
 * and so does a file cut short, whose last field may then be cut too (CutShort tells where the format shows it).
 */
export interface SourceLine {
  line: number;
  text: string;
  unterminated?: true;
}

const ZIP_LOCAL = 0x04034b50;
const HEAD_BYTES = 64 * 1024;

/** Where the first entry's data starts and how it is compressed. */
async function zipEntry(file: string): Promise<{ offset: number; method: number; name: string } | null> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(30);
    const { bytesRead } = await handle.read(header, 0, 30, 0);
    if (bytesRead < 30 || header.readUInt32LE(0) !== ZIP_LOCAL) return null;
    const method = header.readUInt16LE(8);
    const nameLength = header.readUInt16LE(26);
    const extraLength = header.readUInt16LE(28);
    const name = Buffer.alloc(nameLength);
    await handle.read(name, 0, nameLength, 30);
    return { offset: 30 + nameLength + extraLength, method, name: name.toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** The file's size in bytes. A missing file throws the system's ENOENT error, which names its path. */
export function fileSize(file: string): number {
  const name = path.basename(file);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    throw new SourceError(name, null, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (stat.isDirectory()) throw new SourceError(name, null, 'is a folder, not a file');
  return stat.size;
}

/** The file's first bytes, by which a loader knows its kind. */
async function headOf(file: string, size: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Lines as readline splits them (LF, CRLF or a lone CR ends one; the last needs none), a chunk of the stream
 * at a time, decoded as UTF-8; the last line says when no line break ends it.
 */
async function* splitLines(input: Readable, name: string): AsyncGenerator<SourceLine[]> {
  const decoder = new StringDecoder('utf8');
  let line = 0;
  let rest = '';
  const batchOf = (texts: string[]): SourceLine[] => texts.map((text) => ({ line: ++line, text }));
  try {
    for await (const chunk of input) {
      let text = rest + decoder.write(chunk as Buffer);
      // A CR at the end may be the first half of a CRLF: it waits for the next chunk.
      const held = text.endsWith('\r');
      if (held) text = text.slice(0, -1);
      const parts = text.split(LINE_BREAK);
      rest = (parts.pop() as string) + (held ? '\r' : '');
      if (parts.length) yield batchOf(parts);
    }
  } catch (error) {
    throw new SourceError(name, line + 1, `unreadable: ${(error as Error).message}`);
  }
  const last = (rest + decoder.end()).split(LINE_BREAK);
  const unterminated = last.at(-1) !== '';
  if (!unterminated) last.pop();
  if (last.length) {
    const batch = batchOf(last);
    if (unterminated) batch[batch.length - 1] = { ...batch[batch.length - 1]!, unterminated: true };
    yield batch;
  }
}

export async function openSource(file: string): Promise<SourceFile> {
  const name = path.basename(file);
  const size = fileSize(file);
  const entry = await zipEntry(file);
  if (entry && entry.method !== 0 && entry.method !== 8) {
    throw new SourceError(
      name,
      null,
      `zip entry ${entry.name} uses compression method ${entry.method}; only stored and deflated entries are read`,
    );
  }
  const hash = createHash('sha256');
  let read = 0;
  let walked: { done: number; total: number } | null = null;
  let digest: string | null = null;

  /** The file's lines (see splitLines), hashed and counted as its bytes are read. */
  async function* lineBatches(): AsyncGenerator<SourceLine[]> {
    const raw = createReadStream(file);
    raw.on('data', (chunk) => {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    });
    let input: Readable = raw;
    if (entry) {
      // The entry's data follows its local header; a deflate stream ends by itself, so what follows it
      // (the central directory) is never inflated.
      const body = createReadStream(file, { start: entry.offset });
      body.on('data', () => {});
      raw.resume();
      input = entry.method === 8 ? body.pipe(createInflateRaw({ finishFlush: 2 })) : body;
    }
    yield* splitLines(input, name);
    await new Promise<void>((resolve) =>
      raw.readableEnded || raw.destroyed ? resolve() : raw.once('close', resolve),
    );
    digest = hash.digest('hex');
  }

  async function* lines(): AsyncGenerator<SourceLine> {
    for await (const batch of lineBatches()) yield* batch;
  }

  return {
    name,
    path: file,
    size,
    head: await headOf(file, size),
    checksum() {
      // A reader that takes the whole file at once (a workbook) has not streamed it: hash it now.
      digest ??= createHash('sha256').update(readFileSync(file)).digest('hex');
      return digest;
    },
    share: () => (walked ? walked.done / walked.total : size ? Math.min(1, read / size) : 0),
    advance(done, total) {
      walked = total > 0 ? { done: Math.min(done, total), total } : null;
    },
    lines,
    lineBatches,
  };
}

const LINE_BREAK = /\r\n|\n|\r/;

/** Splits one CSV line (quotes doubled inside quoted fields; no line breaks inside fields). */
export function csvFields(text: string): string[] {
  // Most rows quote nothing: then the fields are the text between commas.
  if (!text.includes('"')) return text.split(',');
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/**
 * The rows of a CSV file with a header line, each with its line number and a reader of its fields by column
 * name (trimmed; '' for a column the file lacks). Blank lines are skipped; a byte-order mark is dropped. A row
 * with fewer fields than the header, or whose last field is cut short, is refused (CutShort).
 */
export async function* csvRows(
  source: SourceFile,
): AsyncGenerator<{ line: number; get: (column: string) => string }> {
  let columns: Map<string, number> | null = null;
  let cut: CutShort | null = null;
  for await (const row of source.lines()) {
    const { line, text } = row;
    if (text.trim() === '') continue;
    if (!columns) {
      const names = csvFields(text.replace(/^\uFEFF/, ''));
      columns = new Map(names.map((name, i) => [name.trim(), i]));
      cut = new CutShort(source.name, headerWidth(names));
      continue;
    }
    const fields = csvFields(text);
    cut?.check(row, fields);
    const at = columns;
    yield { line, get: (column) => (fields[at.get(column) ?? -1] ?? '').trim() };
  }
}

/**
 * Tells a row cut short from a whole one, where the format shows it: a row with fewer fields than the header,
 * and, on a last line with no line break after it, a number with fewer decimals than every earlier value of
 * its column had (a yield of "5.5" where the file writes "5.56"). Figures that vary in their decimals, or have
 * none (a volume), cannot show it.
 */
export class CutShort {
  /** The decimals every value of each column has had so far: a count, or -1 once they have differed. */
  private readonly decimals: number[] = [];

  constructor(
    private readonly file: string,
    private readonly width: number,
  ) {}

  check(row: SourceLine, fields: readonly string[]): void {
    if (fields.length < this.width)
      throw new SourceError(
        this.file,
        row.line,
        `the row has ${fields.length} fields where the header has ${this.width}: the file is cut short or the row is malformed`,
      );
    const { decimals } = this;
    for (let i = 0; i < fields.length; i += 1) {
      const held = decimals[i];
      const field = fields[i];
      // A column whose decimals have differed shows nothing: it is not read again (a universe's millions of rows).
      if (held === -1 || field === undefined) continue;
      const places = decimalsOf(field);
      if (places === null) continue;
      if (row.unterminated && held !== undefined && held > 0 && places < held)
        throw new SourceError(
          this.file,
          row.line,
          `the last line ends in "${field.trim()}" where every earlier value of its column has ${held} decimals: the file is cut short`,
        );
      decimals[i] = held === undefined || held === places ? places : -1;
    }
  }
}

/** The fields a row must have: up to the header's last named column (a trailing comma names none). */
export function headerWidth(names: readonly string[]): number {
  let width = names.length;
  while (width > 0 && names[width - 1]?.trim() === '') width -= 1;
  return width;
}

/**
 * How many decimals a plain decimal number is written with (spaces around it allowed); null for anything else.
 * Read a character at a time: it runs on every field of every row of a price file.
 */
function decimalsOf(field: string): number | null {
  let start = 0;
  let end = field.length;
  while (start < end && field.charCodeAt(start) === SPACE) start += 1;
  while (end > start && field.charCodeAt(end - 1) === SPACE) end -= 1;
  if (start < end && field.charCodeAt(start) === MINUS) start += 1;
  if (start === end || !isDigit(field.charCodeAt(start))) return null;
  let dot = -1;
  for (let i = start + 1; i < end; i += 1) {
    const c = field.charCodeAt(i);
    if (c === DOT && dot < 0) dot = i;
    else if (!isDigit(c)) return null;
  }
  return dot < 0 ? 0 : end - dot - 1;
}

const SPACE = 32;
const MINUS = 45;
const DOT = 46;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** A file read whole, as text (its lines joined by LF), for readers that need all of it at once. */
export async function wholeText(source: SourceFile): Promise<string> {
  const parts: string[] = [];
  for await (const { text } of source.lines()) parts.push(text);
  return parts.join('\n');
}

/** A whole JSON file, parsed; a file that is not JSON (or is cut short) is refused by name. */
export async function wholeJson(source: SourceFile): Promise<unknown> {
  const text = await wholeText(source);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
}
