// A reader for Excel 97-2003 workbooks (.xls): the OLE compound file that holds the Workbook stream, and
// the BIFF8 records in it that carry cell values (numbers, shared and inline strings, cached formula results).
// Enough for the agencies' data workbooks; formatting, formulas' text and charts are not read.

export type Cell = string | number;

export interface Sheet {
  name: string;
  /** rows[row][col]; rows and columns from 0, gaps where a cell is empty. */
  rows: Cell[][];
}

export class WorkbookError extends Error {}

const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;

/** The named stream of an OLE compound file. */
function compoundStream(file: Buffer, wanted: string[]): Buffer {
  if (file.length < 512 || file.readUInt32LE(0) !== 0xe011cfd0)
    throw new WorkbookError('not an OLE compound file');
  const sectorSize = 1 << file.readUInt16LE(0x1e);
  const miniSectorSize = 1 << file.readUInt16LE(0x20);
  const fatSectors = file.readUInt32LE(0x2c);
  const directoryStart = file.readUInt32LE(0x30);
  const miniCutoff = file.readUInt32LE(0x38);
  const miniFatStart = file.readUInt32LE(0x3c);
  let difatNext = file.readUInt32LE(0x44);
  const sectorAt = (n: number) => {
    const start = (n + 1) * sectorSize;
    if (start + sectorSize > file.length + sectorSize)
      throw new WorkbookError(`sector ${n} is outside the file`);
    return file.subarray(start, start + sectorSize);
  };

  const fatList: number[] = [];
  for (let i = 0; i < 109 && fatList.length < fatSectors; i += 1)
    fatList.push(file.readUInt32LE(0x4c + i * 4));
  while (fatList.length < fatSectors && difatNext !== END_OF_CHAIN && difatNext !== FREE) {
    const sector = sectorAt(difatNext);
    for (let i = 0; i < sectorSize / 4 - 1 && fatList.length < fatSectors; i += 1)
      fatList.push(sector.readUInt32LE(i * 4));
    difatNext = sector.readUInt32LE(sectorSize - 4);
  }
  const fat: number[] = [];
  for (const s of fatList) {
    const sector = sectorAt(s);
    for (let i = 0; i < sectorSize; i += 4) fat.push(sector.readUInt32LE(i));
  }
  const chain = (start: number, table: number[], read: (n: number) => Buffer): Buffer => {
    const parts: Buffer[] = [];
    const seen = new Set<number>();
    for (let n = start; n !== END_OF_CHAIN && n !== FREE; n = table[n] ?? END_OF_CHAIN) {
      if (seen.has(n)) throw new WorkbookError('a sector chain loops');
      seen.add(n);
      parts.push(read(n));
    }
    return Buffer.concat(parts);
  };

  const directory = chain(directoryStart, fat, sectorAt);
  const entries: { name: string; type: number; start: number; size: number }[] = [];
  for (let off = 0; off + 128 <= directory.length; off += 128) {
    const nameLength = directory.readUInt16LE(off + 0x40);
    entries.push({
      name: directory.subarray(off, off + Math.max(0, nameLength - 2)).toString('utf16le'),
      type: directory[off + 0x42]!,
      start: directory.readUInt32LE(off + 0x74),
      size: directory.readUInt32LE(off + 0x78),
    });
  }
  const root = entries.find((e) => e.type === 5);
  const entry = entries.find((e) => e.type === 2 && wanted.includes(e.name));
  if (!root || !entry) throw new WorkbookError(`no ${wanted.join(' or ')} stream`);
  if (entry.size >= miniCutoff) return chain(entry.start, fat, sectorAt).subarray(0, entry.size);

  const miniStream = chain(root.start, fat, sectorAt);
  const miniFatBytes = chain(miniFatStart, fat, sectorAt);
  const miniFat: number[] = [];
  for (let i = 0; i + 4 <= miniFatBytes.length; i += 4) miniFat.push(miniFatBytes.readUInt32LE(i));
  return chain(entry.start, miniFat, (n) =>
    miniStream.subarray(n * miniSectorSize, (n + 1) * miniSectorSize),
  ).subarray(0, entry.size);
}

interface BiffRecord {
  id: number;
  data: Buffer;
  /** CONTINUE records that follow it. */
  more: Buffer[];
}

function records(stream: Buffer, from: number): BiffRecord[] {
  const out: BiffRecord[] = [];
  for (let off = from; off + 4 <= stream.length; ) {
    const id = stream.readUInt16LE(off);
    const length = stream.readUInt16LE(off + 2);
    const data = stream.subarray(off + 4, off + 4 + length);
    off += 4 + length;
    if (id === 0x003c && out.length) (out.at(-1) as BiffRecord).more.push(data);
    else out.push({ id, data, more: [] });
    if (id === 0x000a) break; // EOF of this substream
  }
  return out;
}

/** Reads across a record and its CONTINUE records; strings resume with a fresh option byte. */
class Cursor {
  private part = 0;
  private off = 0;
  constructor(private readonly parts: Buffer[]) {}

  private current(): Buffer {
    while (this.off >= (this.parts[this.part]?.length ?? 0) && this.part < this.parts.length - 1) {
      this.part += 1;
      this.off = 0;
    }
    return this.parts[this.part]!;
  }
  u8(): number {
    const b = this.current();
    return b[this.off++]!;
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }
  skip(n: number): void {
    for (let i = 0; i < n; i += 1) this.u8();
  }
  /** `count` characters, 1 or 2 bytes each; a CONTINUE boundary inside brings a new option byte. */
  chars(count: number, wide: boolean): string {
    let out = '';
    let twoBytes = wide;
    for (let i = 0; i < count; i += 1) {
      const b = this.parts[this.part]!;
      if (this.off >= b.length && this.part < this.parts.length - 1) {
        this.part += 1;
        this.off = 0;
        twoBytes = (this.u8() & 1) === 1;
      }
      out += String.fromCharCode(twoBytes ? this.u16() : this.u8());
    }
    return out;
  }
  /** An XLUnicodeRichExtendedString (shared strings) or, without rich and extended parts, an XLUnicodeString. */
  string(): string {
    const count = this.u16();
    const flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.u32() : 0;
    const text = this.chars(count, (flags & 1) === 1);
    this.skip(runs * 4 + ext);
    return text;
  }
}

function rk(value: number): number {
  const n =
    value & 0x02
      ? value >> 2
      : (() => {
          const b = Buffer.alloc(8);
          b.writeUInt32LE((value & 0xfffffffc) >>> 0, 4);
          return b.readDoubleLE(0);
        })();
  return value & 0x01 ? n / 100 : n;
}

export function readWorkbook(file: Buffer): Sheet[] {
  const stream = compoundStream(file, ['Workbook', 'Book']);
  const globals = records(stream, 0);
  const bof = globals[0];
  if (bof?.id !== 0x0809 || bof.data.readUInt16LE(0) !== 0x0600) {
    throw new WorkbookError('not a BIFF8 workbook (Excel 97-2003)');
  }
  const shared: string[] = [];
  const sheets: { name: string; offset: number }[] = [];
  for (const r of globals) {
    if (r.id === 0x0085) {
      const cursor = new Cursor([r.data]);
      const offset = cursor.u32();
      cursor.skip(2);
      const count = cursor.u8();
      const wide = (cursor.u8() & 1) === 1;
      sheets.push({ name: cursor.chars(count, wide), offset });
    } else if (r.id === 0x00fc) {
      const cursor = new Cursor([r.data, ...r.more]);
      cursor.u32();
      const unique = cursor.u32();
      for (let i = 0; i < unique; i += 1) shared.push(cursor.string());
    }
  }

  return sheets.map(({ name, offset }) => {
    const rows: Cell[][] = [];
    const put = (row: number, col: number, value: Cell) => {
      rows[row] ??= [];
      (rows[row] as Cell[])[col] = value;
    };
    let pendingFormula: [number, number] | null = null;
    for (const r of records(stream, offset)) {
      const d = r.data;
      switch (r.id) {
        case 0x0203:
          put(d.readUInt16LE(0), d.readUInt16LE(2), d.readDoubleLE(6));
          break;
        case 0x027e:
          put(d.readUInt16LE(0), d.readUInt16LE(2), rk(d.readUInt32LE(6)));
          break;
        case 0x00bd: {
          const row = d.readUInt16LE(0);
          const first = d.readUInt16LE(2);
          const count = (d.length - 6) / 6;
          for (let i = 0; i < count; i += 1) put(row, first + i, rk(d.readUInt32LE(4 + i * 6 + 2)));
          break;
        }
        case 0x00fd:
          put(d.readUInt16LE(0), d.readUInt16LE(2), shared[d.readUInt32LE(6)] ?? '');
          break;
        case 0x0204:
          put(d.readUInt16LE(0), d.readUInt16LE(2), new Cursor([d.subarray(6), ...r.more]).string());
          break;
        case 0x0006: {
          const row = d.readUInt16LE(0);
          const col = d.readUInt16LE(2);
          if (d.readUInt16LE(12) === 0xffff) {
            if (d[6] === 0) pendingFormula = [row, col]; // a string result follows in a STRING record
          } else put(row, col, d.readDoubleLE(6));
          break;
        }
        case 0x0207:
          if (pendingFormula) put(pendingFormula[0], pendingFormula[1], new Cursor([d, ...r.more]).string());
          pendingFormula = null;
          break;
      }
    }
    return { name, rows };
  });
}

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** An Excel date serial (1900 system) as YYYY-MM-DD. */
export function excelDate(serial: number): string {
  return new Date(EXCEL_EPOCH + Math.round(serial) * 86_400_000).toISOString().slice(0, 10);
}
