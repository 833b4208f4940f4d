// Point in time on the COT: the CFTC's weekly file of 14 April 2026 (published Friday 17 April, 15:30 New York),
// then the same file with one figure corrected (WTI's non-commercial long, 390,468 → 391,468), published the
// Monday after. Before the correction's publication the contract and the board serve the figure as first
// published; after it, the corrected one. Both engines.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { correctedWeekly } from '../../helpers/cftc.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const WEEKLY = real('cftc/weekly/deafut_2026-04-14.zip');
const FIRST = '2026-04-17T19:30:00Z';
const CORRECTED = '2026-04-20T19:30:00Z';
const NOW = new Date('2026-11-25T12:00:00Z');

describe('cot as known on a date', () => {
  const copy = correctedWeekly();
  const corrected = copy.file;
  afterAll(() => copy.remove());

  it('the corrected copy differs from the CFTC’s file in that one figure', () => {
    // WTI's row: open interest 2,094,492, then the non-commercial long 390,468 (the file as the CFTC wrote it).
    expect(copy.line).toContain(' 2094492,  390468,');
    expect(readFileSync(corrected, 'utf8')).not.toBe(readFileSync(WEEKLY, 'utf8'));
  });

  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let user: Customer;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => NOW });
        user = await customer(env.deps);
        const cftc = LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;
        await loadFile(env.deps, cftc, WEEKLY, { published: FIRST });
        const correction = await loadFile(env.deps, cftc, corrected, { published: CORRECTED });
        expect(correction).toMatchObject({ revised: 1, knownFrom: 'published' });
      });
      afterAll(() => env.close());
      const get = async (url: string) => {
        const res = await env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      };
      const wtiLong = async (query: string) => {
        const { data } = await get(`/v1/cftc/cot/contracts/067651?traderClass=noncommercial${query}`);
        return data.rows.map((r: { reportDate: string; position: { long: number } }) => [
          r.reportDate,
          r.position.long,
        ]);
      };

      it('the contract: as first published before the correction, corrected after it and now', async () => {
        expect(await wtiLong('&asOf=2026-04-18')).toEqual([['2026-04-14', 390468]]);
        expect(await wtiLong('&asOf=2026-04-20')).toEqual([['2026-04-14', 391468]]);
        expect(await wtiLong('')).toEqual([['2026-04-14', 391468]]);
      });

      it('the board as of the Saturday: every contract of the report, WTI as first published', async () => {
        const { data } = await get('/v1/cftc/cot?asOf=2026-04-18');
        const row = data.rows.find((r: { contractCode: string }) => r.contractCode === '067651');
        expect(row.position.long).toBe(390468);
        expect(data).toMatchObject({ asOf: '2026-04-14', status: 'available', gaps: [] });
      });

      it('before the first publication: no rows and a gap saying so, for the board and the contract', async () => {
        for (const url of ['/v1/cftc/cot?asOf=2026-04-16', '/v1/cftc/cot/contracts/067651?asOf=2026-04-16']) {
          const { data } = await get(url);
          expect(data).toMatchObject({
            rows: [],
            status: 'partial',
            gaps: ['nothing published by 2026-04-16 is held for this report family'],
          });
        }
      });
    });
  }

  describe('without --published: a report is known from its release on the calendar, a correction from its load', () => {
    let env: TestEnv;
    let user: Customer;
    beforeAll(async () => {
      env = await testEnv({ clock: () => NOW });
      user = await customer(env.deps);
      const cftc = LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;
      expect(await loadFile(env.deps, cftc, WEEKLY)).toMatchObject({ knownFrom: 'first publication' });
      await loadFile(env.deps, cftc, corrected);
    });
    afterAll(() => env.close());
    const wtiLong = async (asOf: string) => {
      const res = await env.app.inject({
        method: 'GET',
        url: `/v1/cftc/cot/contracts/067651?traderClass=noncommercial&asOf=${asOf}`,
        headers: bearer(user.key),
      });
      return res.json().data.rows.map((r: { position: { long: number } }) => r.position.long);
    };

    it('the report of Tuesday 14 April 2026 is known from Friday 17 April; the correction only from its load', async () => {
      expect(await wtiLong('2026-04-16')).toEqual([]);
      expect(await wtiLong('2026-04-17')).toEqual([390468]);
      // Loaded on 25 November 2026 without a publication time: not dated back to the release.
      expect(await wtiLong('2026-11-24')).toEqual([390468]);
      expect(await wtiLong('2026-11-25')).toEqual([391468]);
    });
  });
});

describe('reports published late after a lapse in appropriations (the 2018 disaggregated year file)', () => {
  // The CFTC published nothing from 28 December 2018 until 1 February 2019, then one report a Tuesday and one
  // a Friday (its catch-up schedule of 29 January 2019): the year file holds the reports of 24 and 31 December.
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv({ clock: () => NOW });
    user = await customer(env.deps);
    await loadFile(
      env.deps,
      LOADERS.cftc as NonNullable<typeof LOADERS.cftc>,
      asset('cftc/fut_disagg_txt_2018.zip'),
    );
  });
  afterAll(() => env.close());
  const newestReport = async (asOf: string) => {
    const res = await env.app.inject({
      method: 'GET',
      url: `/v1/cftc/cot?report=disaggregated&asOf=${asOf}`,
      headers: bearer(user.key),
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.asOf;
  };

  it('as known in January 2019, the newest report is that of 18 December; 24 December from 1 February, 31 December from 5 February', async () => {
    expect(await newestReport('2018-12-31')).toBe('2018-12-18');
    expect(await newestReport('2019-01-25')).toBe('2018-12-18');
    expect(await newestReport('2019-01-31')).toBe('2018-12-18');
    expect(await newestReport('2019-02-01')).toBe('2018-12-24');
    expect(await newestReport('2019-02-04')).toBe('2018-12-24');
    expect(await newestReport('2019-02-05')).toBe('2018-12-31');
  });
});
