// A statement period restated more than once is read as of a date at the value of the last filing by then.
// Apple's company facts report fiscal 2008 net income as 4,834 million in the 10-K of 2009-10-27, 6,119 million
// in the 10-K/A of 2010-01-25 (the new revenue rules, applied back) and 6,119 again in the 10-K of 2010-10-27:
// as of February 2010 the figure is the 10-K/A's, not the first. Both engines; and the migration that keeps
// every report turns a held first report into the first of the list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { reportsOf } from '../../../src/market/load/sec-facts.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { MIGRATIONS } from '../../../src/runtime/migrations.js';
import { openStore } from '../../../src/store/engine.js';
import { migrate } from '../../../src/store/migrate.js';
import { ENGINES, freshPostgres, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const AAPL = asset('sec/companyfacts/CIK0000320193.json');

describe('the reports of a period', () => {
  it('each value once, from the first filing that reported it, oldest first', () => {
    expect(
      reportsOf([
        { value: 6119, filed: '2010-10-27' },
        { value: 4834, filed: '2009-10-27' },
        { value: 6119, filed: '2010-01-25' },
      ]),
    ).toEqual([
      { value: 4834, filed: '2009-10-27' },
      { value: 6119, filed: '2010-01-25' },
    ]);
    // Back to an earlier value is a report of its own.
    expect(
      reportsOf([
        { value: 1, filed: '2020-01-01' },
        { value: 2, filed: '2021-01-01' },
        { value: 1, filed: '2022-01-01' },
      ]).map((r) => r.value),
    ).toEqual([1, 2, 1]);
  });
});

describe("Apple's net income as known on a date", () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => new Date('2026-11-25T12:00:00Z') });
        await loadFile(env.deps, LOADERS['sec-facts'] as NonNullable<(typeof LOADERS)['sec-facts']>, AAPL, {
          ticker: 'AAPL',
        });
      }, 60_000);
      afterAll(() => env.close());

      const netIncome = async (asOf: string) => {
        const key = await marketKey(env.deps);
        const res = await env.app.inject({
          method: 'GET',
          url: `/v1/history?tickers=AAPL&fields=netIncome&period=annual&start=2008-01-01&end=2009-12-31${asOf ? `&asOf=${asOf}` : ''}`,
          headers: { authorization: `Bearer ${key}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().items[0].rows.map((r: { netIncome: number }) => r.netIncome / 1e6);
      };

      it('as first filed, then as the 10-K/A restated it, then as the next 10-K repeated it', async () => {
        expect(await netIncome('2010-01-24')).toEqual([4834, 5704]);
        expect(await netIncome('2010-02-01')).toEqual([6119, 8235]);
        expect(await netIncome('2010-11-01')).toEqual([6119, 8235]);
        expect(await netIncome('')).toEqual([6119, 8235]);
      });

      it('stores the two reports of fiscal 2008, not the third filing that repeated the second', async () => {
        const row = await env.deps.store.db
          .selectFrom('market_statements')
          .select(['value', 'filed', 'reports'])
          .where('symbol', '=', 'AAPL')
          .where('field', '=', 'netIncome')
          .where('start', '=', '2007-09-30')
          .where('end', '=', '2008-09-27')
          .executeTakeFirstOrThrow();
        expect(row.value).toBe(6_119_000_000);
        expect(row.filed).toBe('2010-10-27');
        expect(JSON.parse(row.reports ?? 'null')).toEqual([
          { value: 4_834_000_000, filed: '2009-10-27' },
          { value: 6_119_000_000, filed: '2010-01-25' },
        ]);
      });
    });
  }
});

describe('migration 034 on a store holding first reports', () => {
  for (const { engine, skip } of ENGINES) {
    it.skipIf(skip)(
      `on ${engine}: a first report other than the latest becomes the first of two`,
      async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-m034-'));
        const postgres = engine === 'postgres' ? await freshPostgres() : null;
        const store = openStore({ databaseUrl: postgres?.url ?? null, dataDir });
        try {
          const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '033'));
          await migrate(store, before);
          const row = (value: number, filed: string, first: number) => ({
            symbol: 'AAPL',
            field: 'netIncome',
            kind: 'duration',
            start: `${filed.slice(0, 4)}-01-01`,
            end: `${filed.slice(0, 4)}-12-31`,
            value,
            currency: 'USD',
            fp: 'FY',
            form: '10-K',
            filed,
            concept: 'us-gaap:NetIncomeLoss',
            source: 'facts.json',
            loaded_at: '2026-11-01T00:00:00.000Z',
            first_value: first,
            first_filed: '2009-10-27',
          });
          // The store's type no longer names the columns migration 032 added.
          const db = store.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
          await db
            .insertInto('market_statements')
            .values([row(6119, '2010-10-27', 4834), row(5, '2011-10-27', 5)])
            .execute();
          await migrate(store, MIGRATIONS);
          const rows = await store.db
            .selectFrom('market_statements')
            .select(['value', 'reports'])
            .orderBy('filed')
            .execute();
          expect(rows.map((r) => [r.value, r.reports === null ? null : JSON.parse(r.reports)])).toEqual([
            [
              6119,
              [
                { value: 4834, filed: '2009-10-27' },
                { value: 6119, filed: '2010-10-27' },
              ],
            ],
            [5, null],
          ]);
        } finally {
          await store.close();
          await postgres?.drop();
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );
  }
});
