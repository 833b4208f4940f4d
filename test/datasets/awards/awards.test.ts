// awards: import, the filtered listing with signed keyset cursors and summaries, one award's revisions.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awardId, awardsImporter } from '../../../src/datasets/awards/import.js';
import { importFile } from '../../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

const DATA = 'test/fixtures/usaspending';
type Json = Record<string, unknown>;

// Interchange records made from USAspending's own responses: ten DoD prime awards to MIT, three NASA
// subawards under prime contract 80GSFC18C0008.
function primes(): Json[] {
  const file = JSON.parse(readFileSync(path.join(DATA, '01-award-search-dod-mit.json'), 'utf8'));
  return file.results.map((r: Json) => ({
    source: 'usaspending',
    sourceAwardId: r.generated_internal_id,
    jurisdiction: 'US',
    awardType: 'prime',
    title: r.Description,
    awardDate: r['Start Date'],
    currency: 'USD',
    obligatedAmount: (r['Award Amount'] as number).toFixed(2),
    recipient: { name: r['Recipient Name'] },
    agency: { name: r['Awarding Agency'] },
    sector: 'Defense',
    ticker: null,
    parentSourceAwardId: null,
    sourceUrl: `https://www.usaspending.gov/award/${r.generated_internal_id}`,
    observedAt: '2026-02-10T00:00:00.000Z',
    entity: null,
    revenueComparison: null,
  }));
}

function subawards(): Json[] {
  const file = JSON.parse(readFileSync(path.join(DATA, 'search_results_subawards.json'), 'utf8'));
  return file.results.map((r: Json) => ({
    source: 'usaspending',
    sourceAwardId: `SUB:${r['Sub-Award ID']}:${r['Sub-Award Date']}`,
    jurisdiction: 'US',
    awardType: 'subaward',
    title: r['Sub-Award Description'],
    awardDate: r['Sub-Award Date'],
    currency: 'USD',
    obligatedAmount: (r['Sub-Award Amount'] as number).toFixed(2),
    recipient: { name: r['Sub-Awardee Name'] },
    agency: { name: r['Awarding Agency'] },
    sector: 'Space',
    ticker: r['Sub-Awardee Name'] === 'LOCKHEED MARTIN CORPORATION' ? 'LMT' : null,
    parentSourceAwardId: r['Prime Award ID'],
    sourceUrl: 'https://www.usaspending.gov/search',
    observedAt: '2025-06-01T00:00:00.000Z',
    entity: null,
    revenueComparison: null,
  }));
}

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`awards on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    const load = async (name: string, records: Json[]) => {
      const file = path.join(env.dataDir, name);
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
      return importFile(env.deps, awardsImporter, file);
    };
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
      await load('awards.ndjson', [...primes(), ...subawards()]);
    });
    afterAll(() => env.close());
    const get = (url: string) => env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
    const list = async (query: string) => {
      const res = await get(`/v1/awards${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };

    it('lists every award newest first, with the summaries of the matching set', async () => {
      const data = await list('');
      expect(data.rows).toHaveLength(13);
      const dates = data.rows.map((r: { awardDate: string }) => r.awardDate);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(data.rows[0]).toMatchObject({
        awardDate: '2022-10-04',
        awardType: 'subaward',
        obligatedAmount: '2030214.00',
      });
      const dod = data.agencies.find((a: { name: string }) => a.name === 'Department of Defense');
      // The ten amounts of the USAspending response add up to 9,913,272,642.47.
      expect(dod).toEqual({
        name: 'Department of Defense',
        awards: 10,
        amounts: [{ currency: 'USD', obligatedAmount: '9913272642.47' }],
      });
      expect(data.leaders[0]).toMatchObject({
        recipient: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
        awards: 10,
      });
      expect(data.history[0]).toMatchObject({ fiscalYear: 2013, awards: 1 });
      expect(data.coverage).toEqual([
        {
          source: 'usaspending',
          jurisdiction: 'US',
          awards: 13,
          firstAwardDate: '2012-12-18',
          lastAwardDate: '2022-10-04',
        },
      ]);
      expect(data.sources[0]).toMatchObject({ id: 'usaspending', awards: 13 });
    });

    it('full-text query over title, recipient and agency', async () => {
      // "LINCOLN LABORATORY" is in three descriptions of the response.
      const lincoln = await list('?query=lincoln%20laboratory');
      expect(lincoln.rows.map((r: { title: string }) => r.title)).toHaveLength(3);
      const byRecipient = await list('?query=lockheed');
      expect(byRecipient.rows).toHaveLength(1);
      expect((await list('?query=aeronautics%20space')).rows).toHaveLength(3);
      expect((await list('?query=nothingmatchesthis')).rows).toEqual([]);
    });

    it('fiscalYear is the US federal fiscal year', async () => {
      // 2016-10-18 falls in FY2017; 2016-06-03 and 2016-07-14 in FY2016.
      expect((await list('?fiscalYear=2017')).rows.map((r: { awardDate: string }) => r.awardDate)).toEqual([
        '2016-10-18',
      ]);
      expect((await list('?fiscalYear=2016')).rows).toHaveLength(2);
    });

    it('minAmount compares exact decimals', async () => {
      const at = await list('?minAmount=1016911606.20');
      expect(at.rows.map((r: { obligatedAmount: string }) => r.obligatedAmount)).toContain('1016911606.20');
      const above = await list('?minAmount=1016911606.200001');
      expect(above.rows.map((r: { obligatedAmount: string }) => r.obligatedAmount)).not.toContain(
        '1016911606.20',
      );
      expect(above.rows).toHaveLength(3);
      expect((await list(`?minAmount=${'9'.repeat(24)}.999999`)).rows).toEqual([]);
    });

    it('parentId lists the subawards of a prime award; other filters narrow the set', async () => {
      const parent = awardId('usaspending', '80GSFC18C0008');
      expect((await list(`?parentId=${parent}`)).rows).toHaveLength(3);
      expect((await list('?awardType=subaward&ticker=lmt')).rows).toHaveLength(1);
      expect(
        (await list('?agency=Department%20of%20Defense&from=2016-01-01&to=2016-12-31')).rows,
      ).toHaveLength(3);
      expect((await list('?jurisdiction=us&currency=usd&sector=Space&source=usaspending')).rows).toHaveLength(
        3,
      );
      expect((await list('?jurisdiction=FR')).rows).toEqual([]);
    });

    it('walks more than two pages while rows are added between pages, losing and repeating nothing', async () => {
      const seen: string[] = [];
      let data = await list('?limit=4');
      seen.push(...data.rows.map((r: { id: string }) => r.id));
      const extra = primes()
        .slice(0, 2)
        .map((r, i) => ({
          ...r,
          sourceAwardId: `EXTRA-${i}`,
          awardDate: i === 0 ? '2030-01-01' : '2000-01-01',
        }));
      let page = 1;
      while (data.nextCursor) {
        if (page === 1) await load('extra.ndjson', extra);
        data = await list(`?limit=4&cursor=${encodeURIComponent(data.nextCursor)}`);
        seen.push(...data.rows.map((r: { id: string }) => r.id));
        page += 1;
      }
      expect(page).toBeGreaterThan(3);
      expect(new Set(seen).size).toBe(seen.length);
      const all = (await list('?limit=200')).rows.map((r: { id: string }) => r.id);
      // Every row that existed at the start was seen; the older row added later was seen too.
      for (const id of all.filter((id: string) => id !== awardId('usaspending', 'EXTRA-0')))
        expect(seen).toContain(id);
    });

    it('refuses forged, truncated and foreign cursors with 400', async () => {
      const first = await list('?limit=2');
      const cursor: string = first.nextCursor;
      const [body, tagPart] = cursor.split('.') as [string, string];
      const forgedBody = Buffer.from(
        JSON.stringify({
          ...JSON.parse(Buffer.from(body, 'base64url').toString()),
          p: { d: '2099-01-01', i: 'f'.repeat(40) },
        }),
      ).toString('base64url');
      const bad = [
        `${forgedBody}.${tagPart}`,
        cursor.slice(0, -3),
        `${body}.`,
        'not-a-cursor',
        `${body}.${tagPart}.x`,
      ];
      for (const c of bad) {
        const res = await get(`/v1/awards?limit=2&cursor=${encodeURIComponent(c)}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          error: 'invalid_params',
          message: expect.stringMatching(/"cursor"/),
        });
      }
      const foreign = await get(`/v1/awards?limit=2&awardType=prime&cursor=${encodeURIComponent(cursor)}`);
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().message).toMatch(/another query/);
      // The same cursor with the same query works, with another page size too.
      expect((await get(`/v1/awards?limit=3&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200);
    });

    it('one award with its revisions, paged', async () => {
      const [record] = primes();
      const id = awardId('usaspending', String(record?.sourceAwardId));
      for (let i = 1; i <= 22; i += 1) {
        await load(`rev${i}.ndjson`, [{ ...record, obligatedAmount: `${1594101040 + i}.69` }]);
      }
      const first = (await get(`/v1/awards/${id}`)).json().data;
      expect(first.award).toMatchObject({
        id,
        obligatedAmount: '1594101062.69',
        revisionId: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
      expect(first.revisions).toHaveLength(20);
      expect(first.revisions[0]).toMatchObject({ revision: 22, obligatedAmount: '1594101061.69' });
      const second = (
        await get(`/v1/awards/${id}?revisionsCursor=${encodeURIComponent(first.nextRevisionsCursor)}`)
      ).json().data;
      expect(second.revisions.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
      expect(second.revisions[1].obligatedAmount).toBe('1594101040.69');
      expect(second.nextRevisionsCursor).toBeNull();
      const wrong = await get(
        `/v1/awards/${'0'.repeat(40)}?revisionsCursor=${encodeURIComponent(first.nextRevisionsCursor)}`,
      );
      expect(wrong.statusCode).toBe(404);
    });

    it('404 not_found for an unknown award id', async () => {
      const res = await get(`/v1/awards/${'e'.repeat(40)}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    });

    it('sums stay exact past 9.2 trillion, with amounts past 9 billion and de-obligations counted', async () => {
      const big = (n: number, amount: string) => ({
        ...(primes()[0] as Json),
        sourceAwardId: `BIG_SUMS_${n}`,
        agency: { name: 'Agency of Big Sums' },
        obligatedAmount: amount,
      });
      await load('big.ndjson', [
        big(1, '9000000000000.01'),
        big(2, '9000000000000.01'),
        big(3, '9000000000000.01'),
        big(4, '12345678901.234567'),
        big(5, '-0.02'),
      ]);
      const data = await list('?agency=Agency%20of%20Big%20Sums');
      // 3 x 9,000,000,000,000.01 + 12,345,678,901.234567 - 0.02 = 27,012,345,678,901.244567
      expect(data.agencies).toEqual([
        {
          name: 'Agency of Big Sums',
          awards: 5,
          amounts: [{ currency: 'USD', obligatedAmount: '27012345678901.244567' }],
        },
      ]);
      expect(data.alerts.filter((a: { kind: string }) => a.kind === 'deobligation')).toHaveLength(1);
    });

    it('flags an award whose amount repeats its own id, and no other', async () => {
      const echo = (n: string, amount: string) => ({
        ...(primes()[0] as Json),
        sourceAwardId: `ASST_NON_${n}_8000`,
        agency: { name: 'Agency of Echoes' },
        obligatedAmount: amount,
      });
      await load('echo.ndjson', [echo('80NSSC21K1234', '1234.00'), echo('2110458', '2110458.00')]);
      const data = await list('?agency=Agency%20of%20Echoes');
      const flags = data.alerts.filter((a: { kind: string }) => a.kind === 'source_flag');
      expect(flags).toEqual([
        {
          kind: 'source_flag',
          awardId: awardId('usaspending', 'ASST_NON_2110458_8000'),
          message: "the amount repeats the award's own id 2110458: likely the id keyed as the amount",
        },
      ]);
    });

    it('a bad line after batches already written keeps nothing of the file, and the store goes on', async () => {
      const many = Array.from({ length: 4500 }, (_, n) => ({
        ...(primes()[0] as Json),
        sourceAwardId: `HALF_LOADED_${n}`,
        agency: { name: 'Agency of Half Loads' },
      }));
      const file = path.join(env.dataDir, 'half.ndjson');
      writeFileSync(file, [...many.map((r) => JSON.stringify(r)), '{"source": "usaspending"}'].join('\n'));
      await expect(importFile(env.deps, awardsImporter, file)).rejects.toThrow(/half\.ndjson:4501:/);
      const kept = await env.deps.store.db
        .selectFrom('awards')
        .select('id')
        .where('agency_name', '=', 'Agency of Half Loads')
        .execute();
      expect(kept).toEqual([]);
      expect((await list('?agency=Agency%20of%20Half%20Loads')).rows).toEqual([]);
      expect(await load('half-again.ndjson', many.slice(0, 10))).toMatchObject({ inserted: 10 });
    });

    // Thousands of awards on the newest days: more candidates than SQLite takes as bound values, and a
    // cursor's own day read whole.
    it('pages through thousands of matching awards on one day, in order, losing and repeating nothing', async () => {
      const day = (n: number, agency: string, date: string) => ({
        ...(primes()[0] as Json),
        sourceAwardId: `ONE_DAY_${agency}_${date}_${n}`,
        agency: { name: agency },
        awardDate: date,
      });
      const crowded = Array.from({ length: 6000 }, (_, n) => day(n, 'Agency of One Day', '2031-05-05'));
      const earlier = Array.from({ length: 30 }, (_, n) => day(n, 'Agency of One Day', '2031-05-04'));
      const others = Array.from({ length: 40 }, (_, n) => day(n, 'Agency of Other Days', '2031-05-05'));
      await load('one-day.ndjson', [...crowded, ...others, ...earlier]);
      const seen: { id: string; awardDate: string; agency: { name: string } }[] = [];
      let data = await list('?agency=Agency%20of%20One%20Day&limit=200');
      expect(data.agencies).toEqual([expect.objectContaining({ name: 'Agency of One Day', awards: 6030 })]);
      seen.push(...data.rows);
      while (data.nextCursor) {
        data = await list(
          `?agency=Agency%20of%20One%20Day&limit=200&cursor=${encodeURIComponent(data.nextCursor)}`,
        );
        seen.push(...data.rows);
      }
      expect(seen).toHaveLength(6030);
      expect(new Set(seen.map((r) => r.id)).size).toBe(6030);
      expect(seen.every((r) => r.agency.name === 'Agency of One Day')).toBe(true);
      // Newest first, ties by id descending: the 6,000 of 2031-05-05, then the 30 of the day before.
      const keys = seen.map((r) => `${r.awardDate} ${r.id}`);
      expect(keys).toEqual([...keys].sort().reverse());
      expect(seen[5999]?.awardDate).toBe('2031-05-05');
      expect(seen[6000]?.awardDate).toBe('2031-05-04');

      // Fewer on the day than a page holds twice: the second page still reaches back to the day before.
      const some = [
        ...Array.from({ length: 300 }, (_, n) => day(n, 'Agency of Some Days', '2031-06-06')),
        ...Array.from({ length: 30 }, (_, n) => day(n, 'Agency of Some Days', '2031-06-05')),
      ];
      await load('some-days.ndjson', some);
      const pages: number[] = [];
      let walked = 0;
      let next: string | null = '';
      while (next !== null) {
        const cursor: string = next ? `&cursor=${encodeURIComponent(next)}` : '';
        const got = await list(`?agency=Agency%20of%20Some%20Days&limit=200${cursor}`);
        pages.push(got.rows.length);
        walked += got.rows.length;
        next = got.nextCursor;
      }
      expect(pages).toEqual([200, 130]);
      expect(walked).toBe(330);
    });
  });
}
