// Every dataset's bulk files on a real file of its source: one row per current record, each member the
// change feed serves for the record equal in the NDJSON file, the CSV's header the documented layout, and the
// Parquet file (read back by hyparquet) the same number of rows with money as DECIMAL(18,4). quarry export
// writes the same file; the MCP tool datasets.bulk_link hands out a link to it.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { produce } from '../../../src/datasets/bulk/produce.js';
import { execPayBulk } from '../../../src/datasets/exec-pay/bulk.js';
import { DATASETS } from '../../../src/datasets/registry.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { NO_AGENCIES } from '../../helpers/agency.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const ASSETS = path.resolve('assets');
const NOTICE = asset('awards/ted/20-157399-001-EXP.xml');
const NOW = new Date('2026-11-25T12:00:00Z');
const run = promisify(execFile);

type Row = Record<string, unknown>;

describe('the bulk layout of every dataset', () => {
  for (const { engine, skip } of ENGINES) describe.skipIf(skip)(`on ${engine}`, () => layouts(engine));
});

function layouts(engine: 'sqlite' | 'postgres') {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv({ engine, clock: () => NOW });
    user = await customer(env.deps);
    const load = (source: string, file: string, options: Record<string, string> = {}) =>
      loadFile(env.deps, LOADERS[source] as NonNullable<(typeof LOADERS)[string]>, file, options);
    await load('sec', path.join(ASSETS, 'sec/company_tickers.json'));
    await load('sec', path.join(ASSETS, 'sec/submissions/CIK0000320193.json'));
    await load('sec', path.join(ASSETS, 'sec/exec-pay/ceo_data_pay_merged_sp500.csv'), {
      'fiscal-year': '2021',
    });
    await load('sec', path.join(ASSETS, 'sec/companyfacts/CIK0000320193.json'));
    await load('bls', path.join(ASSETS, 'bls/cu.item'), { published: '2023-12-12T13:30:00Z' });
    await load('bls', path.join(ASSETS, 'bls/cu.series'), { published: '2023-12-12T13:30:00Z' });
    await load('bls', path.join(ASSETS, 'bls/cu_2025-08/cu.data.12.USHousing.zip'), {
      published: '2025-09-11T12:30:00Z',
    });
    await load('eia', path.join(ASSETS, 'eia/wpsr_table1_week_ending_2026-06-05.csv'));
    await load('cftc', real('cftc/weekly/deafut_2026-04-14.zip'));
    await load('usaspending', path.resolve('test/fixtures/usaspending/01-award-search-dod-mit.json'));
    await load('ted', NOTICE);
    await load('treasury', path.join(ASSETS, 'treasury/bill-2025_asof-2025-11-14.csv'));
  }, 120_000);
  afterAll(() => env.close());

  const get = (url: string) => env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
  /** Every revision the change feed serves of the layout's table, with its key members. */
  const served = async (dataset: string, table: string) => {
    const byRevision = new Map<string, Row>();
    let since = '';
    for (;;) {
      const { changes, nextCursor } = (await get(`/v1/datasets/${dataset}/changes?limit=1000${since}`)).json()
        .data;
      if (changes.length === 0) break;
      for (const c of changes)
        if (c.table === table)
          byRevision.set(`${JSON.stringify(c.key)}${c.revision}`, {
            ...c.key,
            ...c.record,
            revision: c.revision,
            knownAt: c.knownAt,
          });
      since = `&since=${nextCursor}`;
    }
    return byRevision;
  };

  for (const dataset of DATASETS) {
    it(`${dataset.id}: every current record once, as the feed serves it, in CSV, NDJSON and Parquet`, async () => {
      const { columns, key } = dataset.bulk;
      const names = columns.map((c) => c.name);
      const csv = await get(`/v1/datasets/${dataset.id}/bulk?format=csv`);
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body.split('\n')[0]).toBe(names.join(','));
      const rows = (await get(`/v1/datasets/${dataset.id}/bulk?format=ndjson`)).body
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Row);
      const records = await served(dataset.id, dataset.bulk.table);
      // The feed holds every revision, the file the newest of each record: match on the key and revision.
      const current = new Map<string, Row>();
      for (const record of records.values()) {
        const k = key.map((name) => record[name]).join('|');
        const held = current.get(k);
        if (!held || (held.revision as number) < (record.revision as number)) current.set(k, record);
      }
      expect(rows.length).toBeGreaterThan(0);
      expect(rows).toHaveLength(current.size);
      let compared = 0;
      for (const row of rows) {
        expect(Object.keys(row)).toEqual(names);
        const record = current.get(key.map((name) => row[name]).join('|'));
        expect(record, JSON.stringify(row)).toBeDefined();
        for (const column of columns) {
          if (!(column.name in (record as Row))) continue;
          // The feed serves a stored flag as it is kept (0 or 1), and money as the store gives it; a file's money
          // is a decimal string.
          const value = (record as Row)[column.name];
          const expected =
            column.type === 'boolean'
              ? Boolean(value)
              : column.type === 'decimal' && value !== null
                ? String(value)
                : value;
          expect(row[column.name], `${dataset.id} ${column.name}`).toEqual(expected);
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(rows.length * 3);
      const parquet = (await get(`/v1/datasets/${dataset.id}/bulk?format=parquet`)).rawPayload;
      const file = new Uint8Array(parquet).buffer;
      expect(await parquetReadObjects({ file, compressors })).toHaveLength(rows.length);
      const money = columns.filter((c) => c.type === 'decimal').map((c) => c.name);
      for (const element of parquetMetadata(file).schema.filter((s) => money.includes(s.name)))
        expect([element.converted_type, element.precision, element.scale]).toEqual(['DECIMAL', 18, 4]);
    });
  }

  it('awards: money exact in the text files and a decimal in Parquet, as the listing serves it', async () => {
    const listing = (await get('/v1/awards?limit=200')).json().data.rows as Row[];
    const rows = (await get('/v1/datasets/awards/bulk?format=ndjson')).body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);
    for (const award of listing) {
      const row = rows.find((r) => r.id === award.id);
      expect(row?.obligatedAmount).toBe(award.obligatedAmount);
      expect(row?.recipientName).toBe((award.recipient as { name: string }).name);
    }
    const file = new Uint8Array((await get('/v1/datasets/awards/bulk?format=parquet')).rawPayload).buffer;
    const typed = (await parquetReadObjects({ file, compressors })) as Row[];
    for (const row of rows) {
      const read = typed.find((t) => t.id === row.id);
      expect(read?.obligatedAmount).toBeCloseTo(Number(row.obligatedAmount), 4);
    }
  });

  it('quarry export writes the file a download of the same version reads', async () => {
    const out = path.join(env.dataDir, 'cot-export.csv');
    const { stdout } = await run(
      process.execPath,
      ['dist/cli/main.js', 'export', 'cot', '--format', 'csv', '--out', out],
      {
        env: {
          ...process.env,
          ...NO_AGENCIES,
          QUARRY_DATA_DIR: env.dataDir,
          LOG_LEVEL: 'silent',
          ...(env.config.databaseUrl ? { DATABASE_URL: env.config.databaseUrl } : {}),
        },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ dataset: 'cot', format: 'csv', rows: 353 });
    expect(readFileSync(out, 'utf8')).toBe((await get('/v1/datasets/cot/bulk?format=csv')).body);
  });

  it('money that does not fit DECIMAL(18,4) stops the files: nothing is rounded', async () => {
    const db = env.deps.store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const first = await db
      .selectFrom('exec_pay')
      .select(['row_id', 'ceo_total'])
      .where('is_current', '=', 1)
      .orderBy('row_id')
      .executeTakeFirstOrThrow();
    const folder = (name: string) => path.join(env.dataDir, 'refused', name);
    const current = () => Promise.resolve(1);
    try {
      // A fifth decimal place: Parquet's DECIMAL(18,4) would round it.
      await db
        .updateTable('exec_pay')
        .set({ ceo_total: 1234567.12345 })
        .where('row_id', '=', first.row_id)
        .execute();
      await expect(
        produce(env.deps, 'exec-pay', execPayBulk, 1, null, folder('fifth'), current),
      ).rejects.toThrow(/ceoTotal 1234567\.12345 does not fit DECIMAL\(18,4\)/);
      // Fifteen digits before the point.
      await db.updateTable('exec_pay').set({ ceo_total: 1e14 }).where('row_id', '=', first.row_id).execute();
      await expect(
        produce(env.deps, 'exec-pay', execPayBulk, 1, null, folder('wide'), current),
      ).rejects.toThrow(/ceoTotal 100000000000000 does not fit/);
      expect(existsSync(folder('fifth')) || existsSync(folder('wide'))).toBe(false);
    } finally {
      await db
        .updateTable('exec_pay')
        .set({ ceo_total: first.ceo_total })
        .where('row_id', '=', first.row_id)
        .execute();
    }
    // The same row as it is stored makes the files.
    const made = await produce(env.deps, 'exec-pay', execPayBulk, 1, null, folder('kept'), current);
    expect(made?.rows).toBeGreaterThan(0);
  });
}
