// Point in time on awards: each revision is known from the source's own date for it (USAspending's Last
// Modified Date, a TED notice's publication), so the listing and an award's detail can be read as they stood on
// a date. NASA's three IDVs (Last Modified 2020-08-31, 2025-06-25 and 2025-07-03), then a later modification of
// one of them (its amount raised, Last Modified 2025-10-01) loaded before or after the original: whichever
// comes first, the original is served between its date and the modification's, the modification after. Both
// engines.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awardId } from '../../../src/datasets/awards/import.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const IDVS = asset('awards/usaspending/search_results_idvs.json');
const NOTICE = asset('awards/ted/20-157399-001-EXP.xml');
const NOW = new Date('2026-11-25T12:00:00Z');

const SPACE = '80JSC019C0012';
const ORIGINAL = '2770845719.63';
const MODIFIED = '2770846719.63';

type Award = { sourceAwardId: string; obligatedAmount: string };

describe('awards as known on a date', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-awards-asof-'));
  const later = path.join(dir, 'search_results_idvs_modified.json');
  const response = JSON.parse(readFileSync(IDVS, 'utf8')) as { results: Record<string, unknown>[] };
  const space = response.results.find((r) => r['Award ID'] === SPACE) ?? {};
  writeFileSync(
    later,
    JSON.stringify({
      ...response,
      results: response.results.map((r) =>
        r === space ? { ...r, 'Award Amount': Number(MODIFIED), 'Last Modified Date': '2025-10-01' } : r,
      ),
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the file says what the test expects of it', () => {
    expect(response.results.map((r) => [r['Award ID'], r['Last Modified Date']])).toEqual([
      ['NNJ09GA02B', '2020-08-31'],
      [SPACE, '2025-07-03'],
      ['NNK10LB00B', '2025-06-25'],
    ]);
    expect(String(space['Award Amount'])).toBe(ORIGINAL);
  });

  for (const { engine, skip } of ENGINES) {
    for (const order of ['original first', 'modification first'] as const) {
      describe.skipIf(skip)(`on ${engine}, ${order}`, () => {
        let env: TestEnv;
        let user: Customer;
        const id = awardId('usaspending', `CONT_IDV_${SPACE}_8000`);
        beforeAll(async () => {
          env = await testEnv({ engine, clock: () => NOW });
          user = await customer(env.deps);
          const usaspending = LOADERS.usaspending as NonNullable<typeof LOADERS.usaspending>;
          const files = order === 'original first' ? [IDVS, later] : [later, IDVS];
          const reports = [];
          for (const file of files) reports.push(await loadFile(env.deps, usaspending, file));
          // Either way one more revision of the award; loaded second, the original is the first in time.
          expect(reports[1]).toMatchObject({
            ...(order === 'original first' ? { inserted: 0, revised: 1 } : { inserted: 1, revised: 0 }),
            unchanged: 2,
            knownFrom: 'first publication',
          });
        });
        afterAll(() => env.close());
        const call = (url: string) => env.app.inject({ method: 'GET', url, headers: bearer(user.key) });
        const get = async (url: string) => {
          const res = await call(url);
          expect(res.statusCode, res.body).toBe(200);
          return res.json().data;
        };
        const listed = async (query: string) =>
          ((await get(`/v1/awards?source=usaspending${query}`)).rows as Award[])
            .map((a) => [a.sourceAwardId, a.obligatedAmount])
            .sort();

        it('the listing holds each award from its Last Modified Date, with its amount as of then', async () => {
          expect(await listed('&asOf=2025-06-24')).toEqual([['CONT_IDV_NNJ09GA02B_8000', '2890983472.11']]);
          expect(await listed('&asOf=2025-07-02')).toEqual([
            ['CONT_IDV_NNJ09GA02B_8000', '2890983472.11'],
            ['CONT_IDV_NNK10LB00B_8000', '2470736058'],
          ]);
          const three = (amount: string) => [
            ['CONT_IDV_80JSC019C0012_8000', amount],
            ['CONT_IDV_NNJ09GA02B_8000', '2890983472.11'],
            ['CONT_IDV_NNK10LB00B_8000', '2470736058'],
          ];
          expect(await listed('&asOf=2025-07-03')).toEqual(three(ORIGINAL));
          expect(await listed('&asOf=2025-09-30')).toEqual(three(ORIGINAL));
          expect(await listed('&asOf=2025-10-01')).toEqual(three(MODIFIED));
          expect(await listed('')).toEqual(three(MODIFIED));
        });

        it("the summaries are those of the awards known then: NASA's total before and after the modification", async () => {
          const nasa = async (query: string) => {
            const data = await get(`/v1/awards?source=usaspending${query}`);
            return data.agencies.map((a: { name: string; awards: number; amounts: unknown }) => [
              a.name,
              a.awards,
              a.amounts,
            ]);
          };
          // 2,890,983,472.11 + 2,470,736,058 + 2,770,845,719.63, then 1,000 more.
          expect(await nasa('&asOf=2025-09-30')).toEqual([
            [
              'National Aeronautics and Space Administration',
              3,
              [{ currency: 'USD', obligatedAmount: '8132565249.74' }],
            ],
          ]);
          expect(await nasa('')).toEqual([
            [
              'National Aeronautics and Space Administration',
              3,
              [{ currency: 'USD', obligatedAmount: '8132566249.74' }],
            ],
          ]);
        });

        it('the detail: the version known then, and before it only what was superseded by then', async () => {
          const now = await get(`/v1/awards/${id}`);
          expect(now.award.obligatedAmount).toBe(MODIFIED);
          expect(now.knownAt).toBe('2025-10-01T00:00:00.000Z');
          expect(
            now.revisions.map((r: Award & { knownAt: string; supersededAt: string }) => [
              r.obligatedAmount,
              r.knownAt,
              r.supersededAt,
            ]),
          ).toEqual([[ORIGINAL, '2025-07-03T00:00:00.000Z', '2025-10-01T00:00:00.000Z']]);
          const then = await get(`/v1/awards/${id}?asOf=2025-08-15`);
          expect(then.award.obligatedAmount).toBe(ORIGINAL);
          expect(then.knownAt).toBe('2025-07-03T00:00:00.000Z');
          expect(then.revisions).toEqual([]);
          const before = await call(`/v1/awards/${id}?asOf=2025-07-02`);
          expect(before.statusCode).toBe(404);
          expect(before.json()).toMatchObject({ error: 'not_found' });
          expect(before.json().message).toContain('published by 2025-07-02');
        });

        it('before anything was published: no rows and a gap saying so', async () => {
          const data = await get('/v1/awards?asOf=2020-08-30');
          expect(data.rows).toEqual([]);
          expect(data.gaps).toEqual([
            'nothing published by 2020-08-30 is held: the first award held became known on 2020-08-31',
          ]);
          expect((await get('/v1/awards?asOf=2020-08-31')).gaps).toEqual([]);
        });

        it('a future asOf is 400 invalid_params, on the listing and the detail', async () => {
          for (const url of ['/v1/awards?asOf=2026-11-26', `/v1/awards/${id}?asOf=2026-11-26`]) {
            const res = await call(url);
            expect(res.statusCode).toBe(400);
            expect(res.json()).toMatchObject({ error: 'invalid_params' });
          }
        });

        it('a cursor of one point in time is refused at another', async () => {
          const first = await get('/v1/awards?asOf=2025-07-03&limit=1');
          expect(first.rows).toHaveLength(1);
          const next = await get(`/v1/awards?asOf=2025-07-03&limit=1&cursor=${first.nextCursor}`);
          expect(next.rows).toHaveLength(1);
          const elsewhere = await call(`/v1/awards?asOf=2025-09-30&limit=1&cursor=${first.nextCursor}`);
          expect(elsewhere.statusCode).toBe(400);
        });
      });
    }
  }

  describe('a TED notice', () => {
    let env: TestEnv;
    let user: Customer;
    beforeAll(async () => {
      env = await testEnv({ clock: () => NOW });
      user = await customer(env.deps);
      await loadFile(env.deps, LOADERS.ted as NonNullable<typeof LOADERS.ted>, NOTICE);
    });
    afterAll(() => env.close());

    it('is known from its publication in the Official Journal (DATE_PUB 20200331), not from its load', async () => {
      expect(readFileSync(NOTICE, 'utf8')).toContain('<DATE_PUB>20200331</DATE_PUB>');
      const rows = await env.deps.store.db.selectFrom('awards').select(['known_at', 'details']).execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.known_at).toBe('2020-03-31T00:00:00.000Z');
        expect(JSON.parse(row.details ?? '{}')).toMatchObject({ published: '2020-03-31' });
      }
      const res = await env.app.inject({
        method: 'GET',
        url: '/v1/awards?asOf=2020-03-30',
        headers: bearer(user.key),
      });
      expect(res.json().data.rows).toEqual([]);
    });
  });
});
