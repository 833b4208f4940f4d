// Daily bars held a listing-year to a stored block: the codec on a real export's rows, the bytes a bar takes,
// revisions kept with when they became known, on both engines, and the migration of bars held a row each.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import type { Bar } from '../../../src/kernel/market-provider.js';
import { packBars, unpackBars } from '../../../src/market/bars/blocks.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { MIGRATIONS } from '../../../src/runtime/migrations.js';
import { openStore } from '../../../src/store/engine.js';
import { migrate } from '../../../src/store/migrate.js';
import { ENGINES, freshPostgres, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const AAPL = asset('market/ahmedhussain47-Praktikum-Equity-Analysis-Embedding/AAPL.csv');
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;

/** The export's rows as written: date and the five numbers, read here on their own. */
function exportRows(): {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}[] {
  const [head, ...lines] = readFileSync(AAPL, 'utf8').trim().split('\n');
  const names = (head as string).split(',');
  return lines.map((line) => {
    const f = line.split(',');
    const at = (name: string) => Number(f[names.indexOf(name)]);
    return {
      date: f[0] as string,
      open: at('open'),
      high: at('high'),
      low: at('low'),
      close: at('close'),
      volume: at('volume'),
    };
  });
}

describe('a year of bars as one block', () => {
  it('reads back every bar of a real year as packed, missing values as missing', () => {
    const year: Bar[] = exportRows().filter((r) => r.date.startsWith('2020'));
    expect(year.length).toBe(253);
    // 2020 is a leap year: its last day is day 365 of the block.
    expect(year.at(-1)?.date).toBe('2020-12-31');
    year[3] = { ...(year[3] as Bar), open: null, volume: null };
    const packed = packBars(year);
    expect(unpackBars(2020, packed)).toEqual(year);
    // Head, days (padded to eight bytes) and five doubles a bar.
    expect(packed.length).toBe(Math.ceil((4 + 2 * 253) / 8) * 8 + 40 * 253);
  });

  it('is read the same from bytes that do not start on an eight-byte boundary', () => {
    const year = exportRows().filter((r) => r.date.startsWith('2024'));
    const shifted = Buffer.concat([Buffer.from([0]), packBars(year)]).subarray(1);
    expect(unpackBars(2024, shifted)).toEqual(year);
  });
});

describe('bars held as blocks', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let now = new Date('2026-11-20T12:00:00Z');
      const dir = mkdtempSync(path.join(tmpdir(), 'quarry-blocks-'));
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => now });
      }, 60_000);
      afterAll(async () => {
        await env.close();
        rmSync(dir, { recursive: true, force: true });
      });
      const closes = async (start: string, end: string) => {
        const answer = await HISTORY.run(env.deps, { tickers: ['AAPL'], fields: ['PX_LAST'], start, end });
        return (JSON.parse(JSON.stringify(answer.items[0])) as { rows: { date: string; PX_LAST: number }[] })
          .rows;
      };
      const blocks = (year: number) =>
        env.deps.store.db
          .selectFrom('market_bar_blocks')
          .select(['known_at', 'superseded_at', 'loaded_at', 'bars'])
          .where('symbol', '=', 'AAPL')
          .where('year', '=', year)
          .orderBy('known_at')
          .execute();

      it('loads a real export a year a block, within 60 bytes a bar', async () => {
        const report = await loadFile(env.deps, prices, AAPL, {});
        const rows = exportRows();
        expect(report.inserted).toBe(rows.length);
        const held = await env.deps.store.db
          .selectFrom('market_bar_blocks')
          .select(['year', 'bars'])
          .where('symbol', '=', 'AAPL')
          .execute();
        const years = new Set(rows.map((r) => r.date.slice(0, 4)));
        expect(held.map((b) => String(b.year)).sort()).toEqual([...years].sort());
        const bytes = held.reduce((n, b) => n + b.bars.length, 0);
        expect(bytes / rows.length).toBeLessThan(60);
      });

      it('keeps the block a revised bar replaced, with when each was known', async () => {
        const rows = readFileSync(AAPL, 'utf8').trim().split('\n');
        const index = rows.findIndex((r) => r.startsWith('2024-03-01,'));
        const fields = (rows[index] as string).split(',');
        fields[5] = '180.5'; // the close
        rows[index] = fields.join(',');
        const revised = path.join(dir, 'AAPL.csv');
        writeFileSync(revised, `${rows.join('\n')}\n`);
        now = new Date('2026-11-21T12:00:00Z');
        const report = await loadFile(env.deps, prices, revised, {});
        expect(report).toMatchObject({ inserted: 0, revised: 1, unchanged: rows.length - 2 });
        const versions = await blocks(2024);
        expect(versions.map((v) => [v.known_at, v.superseded_at])).toEqual([
          ['2026-11-20T12:00:00.000Z', '2026-11-21T12:00:00.000Z'],
          ['2026-11-21T12:00:00.000Z', null],
        ]);
        const [before, after] = versions.map((v) => unpackBars(2024, v.bars));
        expect(before?.find((b) => b.date === '2024-03-01')?.close).not.toBe(180.5);
        expect(after?.find((b) => b.date === '2024-03-01')?.close).toBe(180.5);
        // Other years were not written again.
        expect((await blocks(2023)).length).toBe(1);
        expect(await closes('2024-03-01', '2024-03-01')).toEqual([{ date: '2024-03-01', PX_LAST: 180.5 }]);
        // The same file again changes nothing.
        now = new Date('2026-11-22T12:00:00Z');
        expect(await loadFile(env.deps, prices, revised, {})).toMatchObject({ revised: 0, inserted: 0 });
        expect((await blocks(2024)).length).toBe(2);
      });

      it('a revision published earlier is known from its publication time', async () => {
        const text = readFileSync(AAPL, 'utf8').replace(/^2025-01-02,AAPL,([^,]*),/m, '2025-01-02,AAPL,1.5,');
        const file = path.join(dir, 'AAPL-2025.csv');
        writeFileSync(file, text);
        now = new Date('2026-11-23T12:00:00Z');
        await loadFile(env.deps, prices, file, { published: '2026-11-22T18:00:00Z' });
        expect((await blocks(2025)).map((v) => [v.known_at, v.superseded_at, v.loaded_at])).toEqual([
          ['2026-11-20T12:00:00.000Z', '2026-11-22T18:00:00.000Z', '2026-11-20T12:00:00.000Z'],
          ['2026-11-22T18:00:00.000Z', null, '2026-11-23T12:00:00.000Z'],
        ]);
      });
    });
  }
});

describe('the migration of bars held a row each', () => {
  for (const { engine, skip } of ENGINES) {
    it.skipIf(skip)(
      `on ${engine}: every bar moves into its year's block, known from its newest load`,
      async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-mblocks-'));
        const postgres = engine === 'postgres' ? await freshPostgres() : null;
        const store = openStore({ databaseUrl: postgres?.url ?? null, dataDir });
        try {
          // A store from before the blocks: without their migration and those that shape their table.
          const blocksAndAfter = ['market/bar-blocks', 'market/bar-compression'];
          const before = Object.fromEntries(
            Object.entries(MIGRATIONS).filter(([name]) => !blocksAndAfter.includes(name)),
          );
          await migrate(store, before);
          const rows = exportRows().filter((r) => r.date >= '2023-12-20' && r.date <= '2024-01-10');
          const row = (r: (typeof rows)[number], i: number) => ({
            symbol: 'AAPL',
            ...r,
            open: i === 0 ? null : r.open,
            source: 'AAPL.csv',
            loaded_at: i === rows.length - 1 ? '2026-11-02T00:00:00.000Z' : '2026-11-01T00:00:00.000Z',
          });
          // The store's type no longer names the table the migration replaces.
          const db = store.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
          await db.insertInto('market_bars').values(rows.map(row)).execute();
          await migrate(store, MIGRATIONS);
          const held = await store.db
            .selectFrom('market_bar_blocks')
            .select(['year', 'bars', 'known_at', 'superseded_at'])
            .orderBy('year')
            .execute();
          expect(held.map((b) => [b.year, b.known_at, b.superseded_at])).toEqual([
            [2023, '2026-11-01T00:00:00.000Z', null],
            [2024, '2026-11-02T00:00:00.000Z', null],
          ]);
          const bars = held.flatMap((b) => unpackBars(b.year, b.bars));
          expect(bars).toEqual(rows.map((r, i) => ({ ...r, open: i === 0 ? null : r.open })));
          await expect(db.selectFrom('market_bars').selectAll().execute()).rejects.toThrow();
        } finally {
          await store.close();
          await postgres?.drop();
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );
  }

  it.skipIf(ENGINES.find((e) => e.engine === 'postgres')?.skip ?? true)(
    'on postgres: new blocks are compressed with LZ4',
    async () => {
      const postgres = await freshPostgres();
      const store = openStore({ databaseUrl: postgres.url, dataDir: tmpdir() });
      try {
        await migrate(store, MIGRATIONS);
        const { rows } = await sql<{ attcompression: string }>`SELECT attcompression FROM pg_attribute
          WHERE attrelid = 'market_bar_blocks'::regclass AND attname = 'bars'`.execute(store.db);
        expect(rows).toEqual([{ attcompression: 'l' }]);
      } finally {
        await store.close();
        await postgres.drop();
      }
    },
  );
});
