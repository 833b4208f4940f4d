// A price load commits a slice at a time (ADR 035): between slices another process's writes go in, the
// listings loaded so far are readable, and a load that fails keeps what it committed, says so, and loading the
// mended file again finds that part unchanged. Read from the Dow's real 34-year file (8,596 bars).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain } from '../../../src/cli/output.js';
import { importRecords } from '../../../src/ingest/import.js';
import { loadFile } from '../../../src/ingest/run.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { marketImporter } from '../../../src/market/load/import.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { sqlitePath } from '../../../src/store/engine.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const DOW = path.join(asset('market'), 'alitalbi-storage_data_fy', '^DJI.csv');
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
const SLICE = marketImporter.writeBatch ? (marketImporter.commitEvery ?? 0) : 0;

/** The file's rows as the columns say (Date,Close,High,Low,Open,Volume), read here without the loader. */
function dowRows() {
  const [, ...lines] = readFileSync(DOW, 'utf8').trim().split('\n');
  return lines.map((line) => {
    const [date, close, high, low, open, volume] = line.split(',');
    return {
      date: date!,
      close: Number(close),
      high: Number(high),
      low: Number(low),
      open: Number(open),
      volume: Number(volume),
    };
  });
}

describe('a price load a slice at a time', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('lets another process write between slices, and shows it the bars committed so far', async () => {
    expect(SLICE).toBeGreaterThan(0);
    const rows = dowRows();
    expect(rows.length).toBeGreaterThan(SLICE);
    const other = new SQLite(sqlitePath(env.dataDir));
    other.pragma('busy_timeout = 0');
    const seen: { written: boolean; barsHeld: number }[] = [];
    async function* records() {
      const bar = (r: (typeof rows)[number], i: number) => ({
        line: i + 2,
        value: { type: 'bar', symbol: 'SLICED', ...r },
      });
      yield rows.slice(0, SLICE).map(bar);
      // The first slice has been handed over; the next one is being read: no transaction is open.
      other.prepare("INSERT INTO settings (name, value) VALUES ('sliced-load-test', 'other process')").run();
      const held = other
        .prepare("SELECT count(*) AS n FROM market_bar_blocks WHERE symbol = 'SLICED'")
        .get() as { n: number };
      seen.push({ written: true, barsHeld: held.n });
      yield rows.slice(SLICE).map((r, i) => bar(r, i + SLICE));
    }
    try {
      const report = await importRecords(
        env.deps.store.db,
        marketImporter,
        records(),
        'dow.csv',
        env.deps.clock(),
      );
      expect(report).toMatchObject({ lines: rows.length, inserted: rows.length });
    } finally {
      other.close();
    }
    // The blocks of the first slice's years (1992 up to the 5,000th bar's year) were there to read.
    const yearsOfFirstSlice = new Set(rows.slice(0, SLICE).map((r) => r.date.slice(0, 4))).size;
    expect(seen).toEqual([{ written: true, barsHeld: yearsOfFirstSlice }]);
  });

  it('keeps the slices committed before a bad line, says so, and a load of the mended file finds them unchanged', async () => {
    const rows = dowRows();
    const lines = readFileSync(DOW, 'utf8').split('\n');
    // A close that is not a number on data row 7,001 (file line 7,002): past the first slice.
    const badLine = SLICE + 2001;
    const cells = lines[badLine - 1]!.split(',');
    cells[1] = 'n/a';
    lines[badLine - 1] = cells.join(',');
    const broken = path.join(env.dataDir, 'DJI-broken.csv');
    writeFileSync(broken, lines.join('\n'));
    const failed = await loadFile(env.deps, prices, broken, { ticker: '^DJI' }).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toBe(
      `DJI-broken.csv:${badLine}: close "n/a" is not a number (${SLICE} records before it were committed and stay: loading the mended file again reads them unchanged)`,
    );
    // Said once, truthfully: the command does not also say that nothing was kept.
    expect(explain(failed)).toBe(`quarry: load failed part way: ${(failed as Error).message}`);
    // What was committed reads: the last bar of the first slice, as the file has it.
    const last = rows[SLICE - 1]!;
    const answer = await HISTORY.run(env.deps, {
      tickers: ['^DJI'],
      fields: ['PX_LAST'],
      start: last.date,
      end: last.date,
    });
    const [served] = JSON.parse(JSON.stringify(answer.items[0])).rows as { date: string; PX_LAST: number }[];
    expect(served?.date).toBe(last.date);
    // The file writes a single-precision close in full: served as the same single.
    expect(Math.fround(served?.PX_LAST ?? 0)).toBe(Math.fround(last.close));
    const mended = await loadFile(env.deps, prices, DOW, { ticker: '^DJI' });
    expect(mended).toMatchObject({
      lines: rows.length,
      inserted: rows.length - SLICE,
      unchanged: SLICE,
      revised: 0,
    });
  });
});
