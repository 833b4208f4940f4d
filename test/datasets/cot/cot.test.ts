// cot: import of interchange records, the board and one contract's history, on each engine.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cotImporter } from '../../../src/datasets/cot/import.js';
import { ImportError, importFile } from '../../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

const FIXTURE = path.resolve('test/fixtures/cot-legacy-2025-03.ndjson');

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`cot on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
    });
    afterAll(() => env.close());
    const get = (url: string) => env.app.inject({ method: 'GET', url, headers: bearer(user.key) });

    it('an empty store answers a partial board with a gap', async () => {
      const res = await get('/v1/cftc/cot');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ status: 'partial', rows: [], gaps: [expect.any(String)] });
      expect(res.json().meta).toMatchObject({
        dataset: 'cot',
        asOf: null,
        historyStarts: null,
        sample: false,
      });
    });

    it('imports the records; a second import changes nothing', async () => {
      const first = await importFile(env.deps, cotImporter, FIXTURE);
      expect(first).toMatchObject({ lines: 6, inserted: 6, revised: 0, unchanged: 0 });
      const again = await importFile(env.deps, cotImporter, FIXTURE);
      expect(again).toMatchObject({ lines: 6, inserted: 0, revised: 0, unchanged: 6 });
    });

    it('the legacy noncommercial board of the latest report, with the derived figures', async () => {
      const res = await get('/v1/cftc/cot');
      expect(res.statusCode).toBe(200);
      const { data, meta } = res.json();
      expect(data).toMatchObject({
        source: 'cftc',
        reportFamily: 'legacy',
        traderClass: 'noncommercial',
        asOf: '2025-03-18',
        status: 'available',
        gaps: [],
      });
      expect(data.classes.map((c: { id: string }) => c.id)).toEqual([
        'noncommercial',
        'commercial',
        'nonreportable',
      ]);
      // When the newest report became known (the CFTC's Friday 15:30 New York), and the report's date.
      expect(meta).toMatchObject({
        asOf: '2025-03-21T19:30:00.000Z',
        newestPeriod: '2025-03-18',
        historyStarts: '2025-03-04',
        lastUpdated: null,
      });
      expect(data.rows.map((r: { contractCode: string }) => r.contractCode)).toEqual(['088691', '067651']);
      const wti = data.rows[1];
      // Hand-worked from the CFTC file: 316473 - 149650 = 166823; 166823 / 1768386 = 9.43 %;
      // previous week 302868 - 138742 = 164126, change 2697; long 316473 / 1768386 = 17.90 %, short 8.46 %.
      expect(wti).toMatchObject({
        marketName: 'WTI-PHYSICAL - NEW YORK MERCANTILE EXCHANGE',
        exchangeCode: 'NYME',
        commodityCode: '067',
        reportDate: '2025-03-18',
        openInterest: 1768386,
        status: 'available',
      });
      expect(wti.position).toMatchObject({
        id: 'noncommercial',
        long: 316473,
        short: 149650,
        spreading: 678405,
        net: 166823,
        netPercentOfOpenInterest: 9.43,
        longPercentOfOpenInterest: 17.9,
        shortPercentOfOpenInterest: 8.46,
        weeklyChange: 2697,
        previousReportDate: '2025-03-11',
      });
      // Nets 154841, 164126, 166823: the latest is the highest of three.
      expect(wti.position.percentile1Y).toEqual({
        value: 100,
        rank: 3,
        sampleCount: 3,
        windowStart: '2024-03-26',
        windowEnd: '2025-03-18',
        historyStart: '2025-03-04',
        historyEnd: '2025-03-18',
        completeWindow: false,
        min: 154841,
        max: 166823,
        mean: 161930,
      });
      expect(wti.position.percentile3Y.completeWindow).toBe(false);
      // Gold: 321654 - 63722 = 257932; 257932 / 533566 = 48.34 %; 236100 a week before.
      expect(data.rows[0].position).toMatchObject({
        net: 257932,
        netPercentOfOpenInterest: 48.34,
        weeklyChange: 21832,
      });
    });

    it('another class of the same report: commercial', async () => {
      const res = await get('/v1/cftc/cot?traderClass=commercial');
      const wti = res.json().data.rows.find((r: { contractCode: string }) => r.contractCode === '067651');
      // 702875 - 885103 = -182228; a week before 715375 - 894119 = -178744; the lowest of three.
      expect(wti.position).toMatchObject({
        id: 'commercial',
        net: -182228,
        weeklyChange: -3484,
        spreading: null,
      });
      expect(wti.position.percentile1Y).toMatchObject({ value: 0, rank: 1 });
    });

    it('a report family with nothing loaded answers an empty board', async () => {
      const res = await get('/v1/cftc/cot?report=disaggregated');
      expect(res.json().data).toMatchObject({
        reportFamily: 'disaggregated',
        traderClass: 'managed-money',
        rows: [],
      });
    });

    it("one contract's history, oldest first, the code upper-cased", async () => {
      const res = await get('/v1/cftc/cot/contracts/067651');
      expect(res.statusCode).toBe(200);
      const rows = res.json().data.rows;
      expect(rows.map((r: { reportDate: string }) => r.reportDate)).toEqual([
        '2025-03-04',
        '2025-03-11',
        '2025-03-18',
      ]);
      expect(rows[0].position).toMatchObject({ net: 154841, weeklyChange: null, previousReportDate: null });
      expect(rows[0].position.percentile1Y).toMatchObject({ value: null, sampleCount: 1 });
      expect(rows[1].position).toMatchObject({ net: 164126, weeklyChange: 9285 });
      expect(rows[2].position.percentile1Y.value).toBe(100);
    });

    it('404 not_found for a contract never reported; 200 empty for one not in the selected family', async () => {
      const missing = await get('/v1/cftc/cot/contracts/99999Z');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toBe('not_found');
      const other = await get('/v1/cftc/cot/contracts/067651?report=disaggregated');
      expect(other.statusCode).toBe(200);
      expect(other.json().data.rows).toEqual([]);
    });

    it('a changed record becomes a new revision and the board reads it', async () => {
      const file = path.join(env.dataDir, 'revised.ndjson');
      const record = {
        report: 'legacy',
        contractCode: '067651',
        marketName: 'WTI-PHYSICAL - NEW YORK MERCANTILE EXCHANGE',
        exchangeCode: 'NYME',
        commodityCode: '067',
        reportDate: '2025-03-18',
        openInterest: 1768386,
        positions: {
          noncommercial: { long: 316500, short: 149650, spreading: 678405 },
          commercial: { long: 702875, short: 885103, spreading: null },
          nonreportable: { long: 100, short: 200, spreading: null },
        },
      };
      writeFileSync(file, `${JSON.stringify(record)}\n`);
      expect(await importFile(env.deps, cotImporter, file)).toMatchObject({ revised: 1 });
      const revisions = await env.deps.store.db
        .selectFrom('cot_records')
        .select(['revision', 'is_current'])
        .where('contract_code', '=', '067651')
        .where('report_date', '=', '2025-03-18')
        .orderBy('revision')
        .execute();
      expect(revisions.map((r) => [r.revision, r.is_current])).toEqual([
        [1, 0],
        [2, 1],
      ]);
      const board = (await get('/v1/cftc/cot')).json();
      expect(
        board.data.rows.find((r: { contractCode: string }) => r.contractCode === '067651').position.net,
      ).toBe(166850);
    });

    it('a bad line is reported with its line number and nothing is committed', async () => {
      const file = path.join(env.dataDir, 'bad.ndjson');
      const good = JSON.parse(
        '{"report":"legacy","contractCode":"12345A","marketName":"X","exchangeCode":"X","commodityCode":"1","reportDate":"2025-03-18","openInterest":5,"positions":{"noncommercial":{"long":1,"short":1,"spreading":0},"commercial":{"long":1,"short":1,"spreading":null},"nonreportable":{"long":1,"short":1,"spreading":null}}}',
      );
      const bad = { ...good, contractCode: '22222B', reportDate: '2025-02-30' };
      const wrongClasses = {
        ...good,
        contractCode: '33333C',
        positions: { swap: good.positions.commercial },
      };
      writeFileSync(file, [JSON.stringify(good), '', JSON.stringify(bad)].join('\n'));
      const error = await importFile(env.deps, cotImporter, file).catch((e) => e);
      expect(error).toBeInstanceOf(ImportError);
      expect(error.message).toMatch(/bad\.ndjson:3: field "reportDate"/);
      writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify(wrongClasses)}\n`);
      await expect(importFile(env.deps, cotImporter, file)).rejects.toThrow(
        /:2: positions of a legacy report/,
      );
      writeFileSync(file, `${JSON.stringify(good)}\n{not json\n`);
      await expect(importFile(env.deps, cotImporter, file)).rejects.toThrow(/:2: not JSON/);
      const leaked = await env.deps.store.db
        .selectFrom('cot_records')
        .select('id')
        .where('contract_code', '=', '12345A')
        .execute();
      expect(leaked).toEqual([]);
    });
  });
}
