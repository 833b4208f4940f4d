// History rows of price fields, kept as a window of a bar series until they are written. Twenty years of
// daily bars for ten tickers is 52,000 rows and 5.6 MB of JSON; writing that text is most of the cost of a
// history call, so the text of a cached daily series is written once per set of columns, as UTF-8 bytes, and
// each later call takes the slice of it that its dates cover: an answer is its envelope's bytes and those
// slices, copied once into the body.
import { createHash, randomBytes } from 'node:crypto';
import type { Bar } from '../../kernel/market-provider.js';
import { ownTurn } from '../../kernel/turns.js';
import type { IndexedBar } from '../compute/adjust.js';
import { scalePrice } from '../instrument/price-units.js';

export type BarColumnName = Exclude<keyof IndexedBar, 'date'>;

export interface BarColumn {
  /** The field as the caller sent it: the member name in each row. */
  input: string;
  column: BarColumnName;
  /** Multiplied by the listing's price factor (pence to pounds and the like); volume never is. */
  scaled: boolean;
}

export class BarRows {
  constructor(
    /** The bars; `first` to `end` (exclusive) are the rows. */
    readonly series: readonly IndexedBar[],
    readonly first: number,
    readonly end: number,
    readonly columns: readonly BarColumn[],
    readonly factor: number,
    /** The series is the provider's own (it answers the same array until its data changes). */
    readonly shared: boolean,
  ) {}

  get length(): number {
    return this.end - this.first;
  }

  row(index: number): Record<string, string | number | null> {
    return rowOf(this.series[index]!, this.columns, this.factor);
  }

  /** The documented row objects: date plus one member per field, keyed as sent. */
  toJSON(): Record<string, string | number | null>[] {
    const rows = new Array(this.length);
    for (let i = this.first; i < this.end; i += 1) rows[i - this.first] = this.row(i);
    return rows;
  }
}

function rowOf(bar: IndexedBar, columns: readonly BarColumn[], factor: number) {
  const row: Record<string, string | number | null> = { date: bar.date };
  for (const { input, column, scaled } of columns) {
    const value = bar[column] ?? null;
    row[input] = scaled && value !== null ? scalePrice(value, factor) : value;
  }
  return row;
}

/** The JSON of every row of a series as UTF-8, and where each row starts in it. */
interface Block {
  bytes: Buffer;
  /** offsets[i] is the byte where row i starts; offsets[length] is one past the bytes (as if a comma followed). */
  offsets: Int32Array;
}

/** Written rows held at once, in bytes (the text is one byte a character unless a field name is not ASCII). */
const BLOCK_BUDGET = 64 * 1024 * 1024;

/** Blocks by series and columns, least recently used first, within a budget of bytes. */
export class BlockCache {
  private readonly blocks = new Map<string, Block>();
  private readonly seriesIds = new WeakMap<readonly Bar[], number>();
  private nextId = 1;
  private size = 0;
  /** Series ids are this cache's own: with this prefix an identity never names another cache's text. */
  private readonly prefix = randomBytes(9).toString('base64url');

  constructor(private readonly budget = BLOCK_BUDGET) {}

  /** Bytes held (rows and offsets); at most the budget unless one block is larger. */
  get held(): number {
    return this.size;
  }

  rowsJson(rows: BarRows): string {
    return `[${this.rowsBytes(rows).toString('utf8')}]`;
  }

  /** The rows' JSON without its brackets: a view into the written block of a shared series (no copy). */
  rowsBytes(rows: BarRows): Buffer {
    if (rows.length === 0) return EMPTY;
    if (!rows.shared) return Buffer.from(JSON.stringify(rows).slice(1, -1));
    const { bytes, offsets } = this.block(rows);
    return bytes.subarray(offsets[rows.first], offsets[rows.end]! - 1);
  }

  /**
   * What names the text of shared rows without reading it: the series (a provider answers the same array
   * until its data changes, and this process never gives two arrays one id), the columns, the factor and
   * the window. Null for rows that are not shared.
   */
  identity(rows: BarRows): string | null {
    if (!rows.shared || rows.length === 0) return null;
    return `${this.prefix}\u0000${this.keyOf(rows)}\u0000${rows.first}\u0000${rows.end}`;
  }

  /**
   * Writes the blocks that the shared rows of `items` need and this cache does not hold yet, one series a turn
   * of the event loop: twenty years of daily bars is about 10 ms of writing, and an answer of ten such series
   * would hold the loop for all of them at once.
   */
  async writeInTurns(items: readonly object[]): Promise<void> {
    for (const item of items) {
      const { rows } = item as { rows?: unknown };
      if (!(rows instanceof BarRows) || !rows.shared || rows.length === 0) continue;
      if (this.blocks.has(this.keyOf(rows))) continue;
      await ownTurn();
      this.block(rows);
    }
  }

  /** Blocks written and still held. */
  get count(): number {
    return this.blocks.size;
  }

  private keyOf(rows: BarRows): string {
    let id = this.seriesIds.get(rows.series);
    if (id === undefined) {
      id = this.nextId++;
      this.seriesIds.set(rows.series, id);
    }
    return `${id}\u0000${rows.factor}\u0000${JSON.stringify(rows.columns)}`;
  }

  private block(rows: BarRows): Block {
    const key = this.keyOf(rows);
    let block = this.blocks.get(key);
    if (block) {
      this.blocks.delete(key);
      this.blocks.set(key, block);
      return block;
    }
    block = write(rows);
    this.blocks.set(key, block);
    this.size += block.bytes.length + block.offsets.byteLength;
    for (const [oldKey, old] of this.blocks) {
      if (this.size <= this.budget || old === block) break;
      this.blocks.delete(oldKey);
      this.size -= old.bytes.length + old.offsets.byteLength;
    }
    return block;
  }
}

function write(rows: BarRows): Block {
  const { series, columns, factor } = rows;
  const texts = new Array<string>(series.length);
  const offsets = new Int32Array(series.length + 1);
  let at = 0;
  for (let i = 0; i < series.length; i += 1) {
    const text = JSON.stringify(rowOf(series[i]!, columns, factor));
    texts[i] = text;
    offsets[i] = at;
    at += text.length + 1;
  }
  offsets[series.length] = at;
  const joined = texts.join(',');
  const bytes = Buffer.from(joined);
  // A character past ASCII (in a field name as sent) takes more than a byte: then each row is measured.
  if (bytes.length !== joined.length) {
    at = 0;
    for (let i = 0; i < series.length; i += 1) {
      offsets[i] = at;
      at += Buffer.byteLength(texts[i]!) + 1;
    }
    offsets[series.length] = at;
  }
  return { bytes, offsets };
}

const EMPTY = Buffer.alloc(0);
const blocks = new BlockCache();

/** The JSON text of history rows: from the written block of a shared series, or written now. */
export function rowsJson(rows: BarRows): string {
  return blocks.rowsJson(rows);
}

/** A JSON object's text up to the value of one more member: `{..., "name":`. */
function openMember(objectJson: string, name: string): string {
  const member = `${JSON.stringify(name)}:`;
  return objectJson === '{}' ? `{${member}` : `${objectJson.slice(0, -1)},${member}`;
}

/**
 * `historyAnswer` for a route: the blocks it needs are written first, one series a turn, and the answer's bytes
 * in a turn of their own.
 */
export async function historyAnswerInTurns(body: {
  items: readonly object[];
}): Promise<{ bytes: Buffer; etag: string }> {
  await blocks.writeInTurns(body.items);
  await ownTurn();
  return historyAnswer(body, blocks);
}

/** The JSON text of a history answer, its price rows written through the block cache. */
export function historyJson(body: { items: readonly object[] }): string {
  return historyAnswer(body, blocks).bytes.toString('utf8');
}

/**
 * The JSON of a history answer as UTF-8, and its entity tag. The tag hashes the text of everything but shared
 * price rows, which it names by their identity: a 5 MB answer is tagged without reading its rows again.
 */
export function historyAnswer(
  body: { items: readonly object[] },
  cache: BlockCache = blocks,
): { bytes: Buffer; etag: string } {
  const { items, ...head } = body;
  const hash = createHash('sha1');
  const headJson = JSON.stringify(head);
  hash.update(headJson);
  const parts: Buffer[] = [Buffer.from(`${openMember(headJson, 'items')}[`)];
  for (const [index, item] of items.entries()) {
    const comma = index === 0 ? '' : ',';
    const { rows, ...rest } = item as { rows?: unknown };
    if (!(rows instanceof BarRows)) {
      const text = JSON.stringify(item);
      hash.update(`\u0001${text}`);
      parts.push(Buffer.from(comma + text));
      continue;
    }
    const restJson = JSON.stringify(rest);
    const rowsBytes = cache.rowsBytes(rows);
    hash.update(`\u0001${restJson}\u0002`);
    hash.update(cache.identity(rows) ?? rowsBytes);
    parts.push(Buffer.from(`${comma}${openMember(restJson, 'rows')}[`), rowsBytes, CLOSE_ROWS);
  }
  parts.push(CLOSE_ANSWER);
  return { bytes: Buffer.concat(parts), etag: `"${hash.digest('base64url')}"` };
}

const CLOSE_ROWS = Buffer.from(']}');
const CLOSE_ANSWER = Buffer.from(']}');
