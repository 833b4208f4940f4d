import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endPlan } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/http/build.js';
import { importRecords } from '../../src/ingest/import.js';
import { loaderList, loadFile } from '../../src/ingest/run.js';
import { openSource } from '../../src/ingest/source.js';
import { createDeps } from '../../src/runtime/deps.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { APRIL_14, correctedWeekly, rowsOf } from '../helpers/cftc.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';
import { asset, real } from '../helpers/real-data.js';

const APRIL_21 = real('cftc/weekly/deafut_2026-04-21.zip');
const YEAR_2025 = asset('cftc/deacot2025.zip');
const NOW = new Date('2026-11-25T12:00:00Z');

interface Change {
  table: string;
  key: { reportFamily: string; contractCode: string; reportDate: string };
  change: string;
  revision: number;
  knownAt: string;
  record: { openInterest: number; positions: Record<string, { long: number }> };
}
interface Page {
  changes: Change[];
  nextCursor: string;
}

const cftc = () => LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;

describe('the change feed', () => {
  // WTI's row of 14 April with the non-commercial long corrected, 390,468 → 391,468.
  const copy = correctedWeekly();
  const corrected = copy.file;
  afterAll(() => copy.remove());

  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let user: Customer;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => NOW });
        user = await customer(env.deps);
      });
      afterAll(() => env.close());

      const call = (url: string, key = user.key) =>
        env.app.inject({ method: 'GET', url, headers: bearer(key) });
      const page = async (query: string): Promise<Page> => {
        const res = await call(`/v1/datasets/cot/changes${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data;
      };
      /** Every change after `since`, page by page, and the cursor after the last. */
      const follow = async (since: string | null, limit: number) => {
        const all: Change[] = [];
        let cursor = since;
        for (;;) {
          const next = await page(`?limit=${limit}${cursor ? `&since=${cursor}` : ''}`);
          expect(typeof next.nextCursor).toBe('string');
          all.push(...next.changes);
          cursor = next.nextCursor;
          if (next.changes.length === 0) return { all, cursor };
        }
      };
      const stored = () => rowsOf(env.deps.store.db, 'cot_records');
      let afterFirst = '';

      it('an empty store: no changes, and a cursor to poll with', async () => {
        const first = await page('');
        expect(first.changes).toEqual([]);
        expect(first.nextCursor).toMatch(/\S/);
      });

      it('two weekly files: every revision once, in the order written, whatever the page size', async () => {
        await loadFile(env.deps, cftc(), APRIL_14);
        await loadFile(env.deps, cftc(), APRIL_21);
        const rows = await stored();
        expect(rows).toBeGreaterThan(600);
        for (const limit of [1000, 97, 7]) {
          const { all, cursor } = await follow(null, limit);
          expect(all).toHaveLength(rows);
          const keys = all.map((c) => `${c.key.contractCode}|${c.key.reportDate}`);
          expect(new Set(keys).size).toBe(rows);
          // The 14 April report's rows all come before the 21 April one's.
          const dates = all.map((c) => c.key.reportDate);
          expect(dates.indexOf('2026-04-21')).toBe(dates.lastIndexOf('2026-04-14') + 1);
          afterFirst = cursor;
        }
        const [wtiFirst] = (await follow(null, 1000)).all.filter(
          (c) => c.key.contractCode === '067651' && c.key.reportDate === '2026-04-14',
        );
        // A report not held before is known from its publication: Friday 17 April, 15:30 New York.
        expect(wtiFirst).toMatchObject({
          table: 'cot_records',
          change: 'inserted',
          revision: 1,
          knownAt: '2026-04-17T19:30:00.000Z',
          key: { reportFamily: 'legacy', contractCode: '067651', reportDate: '2026-04-14' },
        });
        expect(wtiFirst?.record.openInterest).toBe(2094492);
        expect(wtiFirst?.record.positions.noncommercial?.long).toBe(390468);
      });

      it('a corrected figure: one revision after the cursor, then nothing', async () => {
        await loadFile(env.deps, cftc(), corrected);
        const { all, cursor } = await follow(afterFirst, 50);
        expect(all).toHaveLength(1);
        expect(all[0]).toMatchObject({
          change: 'revised',
          revision: 2,
          key: { contractCode: '067651', reportDate: '2026-04-14' },
        });
        expect(all[0]?.record.positions.noncommercial?.long).toBe(391468);
        expect((await page(`?since=${cursor}`)).changes).toEqual([]);
      });

      it('a call costs one credit (call type change); an account without a plan is refused 402', async () => {
        const res = await call('/v1/datasets/cot/changes?limit=1');
        expect(res.headers['x-credits-cost']).toBe('1');
        const planless = await customer(env.deps);
        await endPlan(env.deps, { accountId: planless.accountId, at: new Date(NOW.getTime() - 86_400_000) });
        const refused = await call('/v1/datasets/cot/changes', planless.key);
        expect(refused.statusCode).toBe(402);
        expect(refused.json()).toMatchObject({ error: 'plan_required' });
      });

      it('an altered cursor, or one of another feed, is 400 invalid_params', async () => {
        const { nextCursor } = await page('?limit=1');
        const [body = '', tag = ''] = nextCursor.split('.');
        const altered = `${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}${body.slice(-1)}.${tag}`;
        const other = (await call('/v1/datasets/cpi/changes')).json().data.nextCursor as string;
        for (const since of [altered, other, 'not-a-cursor']) {
          const res = await call(`/v1/datasets/cot/changes?since=${encodeURIComponent(since)}`);
          expect(res.statusCode, since).toBe(400);
          expect(res.json()).toMatchObject({ error: 'invalid_params' });
        }
      });
    });
  }

  const postgres = ENGINES.find((e) => e.engine === 'postgres');
  describe.skipIf(postgres?.skip ?? true)(
    'on PostgreSQL, two instances: one loads while the other follows',
    () => {
      let loader: TestEnv;
      let reader: Awaited<ReturnType<typeof buildApp>>;
      let readerDeps: Awaited<ReturnType<typeof createDeps>>;
      let user: Customer;
      beforeAll(async () => {
        loader = await testEnv({ engine: 'postgres', clock: () => NOW });
        readerDeps = await createDeps(loader.config, { clock: () => NOW });
        reader = await buildApp(loader.config, readerDeps);
        await reader.ready();
        user = await customer(loader.deps);
        await loadFile(loader.deps, cftc(), APRIL_14);
      });
      afterAll(async () => {
        await reader?.close();
        await readerDeps?.close();
        await loader?.close();
      });

      it('pages read during the load and after it hold every revision once', async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        const read = async () => {
          const res = await reader.inject({
            method: 'GET',
            url: `/v1/datasets/cot/changes?limit=40${cursor ? `&since=${cursor}` : ''}`,
            headers: bearer(user.key),
          });
          expect(res.statusCode, res.body).toBe(200);
          const data = res.json().data as Page;
          for (const c of data.changes) seen.push(`${c.key.contractCode}|${c.key.reportDate}|${c.revision}`);
          cursor = data.nextCursor;
          return data.changes.length;
        };
        // The second week loads on one instance and the correction on the other, at once, while the reader
        // pages: the correction waits for the week's load (the dataset's write lock), so the feed never passes
        // rows of a load still writing.
        let loading = true;
        const loads = Promise.all([
          loadFile(loader.deps, cftc(), APRIL_21),
          loadFile(readerDeps, cftc(), corrected),
        ]).finally(() => {
          loading = false;
        });
        let pagesDuringLoads = 0;
        while (loading) {
          await read();
          pagesDuringLoads += 1;
        }
        await loads;
        while ((await read()) > 0) {}
        const rows = await rowsOf(loader.deps.store.db, 'cot_records');
        expect(pagesDuringLoads).toBeGreaterThan(1);
        expect(seen).toHaveLength(rows);
        expect(new Set(seen).size).toBe(rows);
        expect(seen).toContain('067651|2026-04-14|2');
      });

      it('a load that waits on another never lets the feed pass rows still being written', async () => {
        // The 2025 legacy year, read in full, then imported through a stream that stops after the first batch
        // (2,000 rows written, not committed) until the test lets it go on.
        const [legacy] = loaderList(cftc());
        const source = await openSource(YEAR_2025);
        const records: { line: number; value: never }[] = [];
        const context = { prepared: undefined, notes: [], options: {}, companions: [], now: NOW };
        for await (const read of legacy?.read(source, context as never) ?? [])
          records.push(...(Array.isArray(read) ? read : [read]));
        expect(records.length).toBeGreaterThan(3000);
        let release = () => {};
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let written = () => {};
        const firstBatch = new Promise<void>((resolve) => {
          written = resolve;
        });
        async function* stream() {
          for (const [i, record] of records.entries()) {
            if (i === 2000) {
              written();
              await gate;
            }
            yield record;
          }
        }
        const year = importRecords(
          loader.deps.store.db,
          legacy?.importer as never,
          stream(),
          'deacot2025',
          NOW,
        );
        await firstBatch;
        // The other instance loads the next week meanwhile: it waits for the dataset's write lock.
        let weekDone = false;
        const week = loadFile(readerDeps, cftc(), real('cftc/weekly/deafut_2026-04-28.zip')).then(() => {
          weekDone = true;
        });
        const waiting = async () =>
          Number(
            (
              await sql<{ n: number }>`SELECT count(*) AS n FROM pg_locks
              WHERE locktype = 'advisory' AND NOT granted`.execute(loader.deps.store.db)
            ).rows[0]?.n,
          );
        while (!weekDone && (await waiting()) === 0) await new Promise((resolve) => setImmediate(resolve));
        // Whatever the feed holds now, then everything once both loads are in.
        const seen = new Set<string>();
        let cursor = '';
        const readAll = async () => {
          for (;;) {
            const res = await reader.inject({
              method: 'GET',
              url: `/v1/datasets/cot/changes?limit=500${cursor ? `&since=${cursor}` : ''}`,
              headers: bearer(user.key),
            });
            const data = res.json().data as Page;
            for (const c of data.changes) {
              const id = `${c.key.reportFamily}|${c.key.contractCode}|${c.key.reportDate}|${c.revision}`;
              expect(seen.has(id), id).toBe(false);
              seen.add(id);
            }
            cursor = data.nextCursor;
            if (data.changes.length === 0) return;
          }
        };
        await readAll();
        release();
        await Promise.all([year, week]);
        await readAll();
        const rows = await rowsOf(loader.deps.store.db, 'cot_records');
        expect(seen.size).toBe(rows);
      });
    },
  );
});
