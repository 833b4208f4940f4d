import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownAt } from '../../src/datasets/known.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';
import { asset, readText } from '../helpers/real-data.js';

const MARCH_2026 = asset('bls/cu.data.1.AllItems');
const AUGUST_2025 = asset('bls/cu_2025-08/cu.data.20.USCommoditiesServicesSpecial.zip');
const APRIL = '2026-04-10T12:30:00.000Z';
const SEPTEMBER = '2025-09-11T12:30:00.000Z';
const NOW = new Date('2026-11-25T12:00:00Z');

/** Seasonally adjusted U.S. city average monthly values of 2021–2025, by series and period, as the file has them. */
function adjustedValues(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readText(file).split(/\r?\n/).slice(1)) {
    const [series, year, period, value] = line.split('\t').map((cell) => cell.trim());
    if (!series?.startsWith('CUSR0000') || !year || !period?.match(/^M(0[1-9]|1[0-2])$/)) continue;
    if (Number(year) < 2021 || Number(year) > 2025 || !value || value === '-') continue;
    out.set(`${series} ${year}-${period.slice(1)}`, Number(value));
  }
  return out;
}

describe('cpi as known on a date', () => {
  const older = adjustedValues(AUGUST_2025);
  const newer = adjustedValues(MARCH_2026);
  const revised = [...newer].filter(([key, value]) => older.has(key) && older.get(key) !== value);

  it('the two vintages differ in 56 seasonally adjusted values of 2021–2025 (the files, read here)', () => {
    expect(revised).toHaveLength(56);
  });

  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let user: Customer;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => NOW });
        user = await customer(env.deps);
        const bls = LOADERS.bls as NonNullable<typeof LOADERS.bls>;
        // The item list as the BLS published it with the older release; the board reads it as known then too.
        await loadFile(env.deps, bls, asset('bls/cu.item'), { published: SEPTEMBER });
        // The newer publication first, then the older one backfilled.
        await loadFile(env.deps, bls, MARCH_2026, { published: APRIL });
        const backfill = await loadFile(env.deps, bls, AUGUST_2025, { published: SEPTEMBER });
        expect(backfill).toMatchObject({ knownAt: SEPTEMBER, knownFrom: 'published' });
      }, 120_000);
      afterAll(() => env.close());
      const board = async (query = '') => {
        const res = await env.app.inject({
          method: 'GET',
          url: `/v1/macro/cpi${query}`,
          headers: bearer(user.key),
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      };
      const allItems = (answer: { data: { rows: { code: string; change: number }[] } }) =>
        answer.data.rows.find((r) => r.code === 'SA0');

      it('each revised value of the older vintage is held as known from September until April', async () => {
        const held = await env.deps.store.db
          .selectFrom('cpi_index')
          .select(['item_code', 'period', 'value'])
          .where('seasonal', '=', 'S')
          .where('known_at', '=', SEPTEMBER)
          .where('superseded_at', '=', APRIL)
          .where('period', '>=', '2021-01')
          .where('period', '<=', '2025-12')
          .execute();
        const expected = revised.map(([key]) => {
          const [series, period] = key.split(' ') as [string, string];
          return [series.slice('CUSR0000'.length), period, older.get(key)];
        });
        expect(held.map((r) => [r.item_code, r.period, Number(r.value)]).sort()).toEqual(expected.sort());
      });

      it('today: the newer vintage, current although it was loaded first (August 2025: +0.3 %)', async () => {
        expect(allItems(await board())).toMatchObject({ change: 0.3 });
      });

      it('as of 1 October 2025: the August 2025 CPI as first published (+0.4 %), nothing of 2026', async () => {
        const answer = await board('?asOf=2025-10-01');
        expect(answer.data.release.period).toBe('2025-08');
        expect(allItems(answer)).toMatchObject({ change: 0.4 });
        // The March 2026 file was not published yet: no all-items month after August 2025.
        expect(answer.data.gaps.join(' ')).not.toMatch(/all items only/);
      });

      it('as of 1 May 2026: the newer vintage alone, the older one superseded by then', async () => {
        expect(allItems(await board('?asOf=2026-05-01'))).toMatchObject({ change: 0.3 });
        const august = await env.deps.store.db
          .selectFrom('cpi_index')
          .select('value')
          .where(knownAt('2026-05-01T23:59:59.999Z'))
          .where('item_code', '=', 'SA0')
          .where('seasonal', '=', 'S')
          .where('period', '=', '2025-08')
          .execute();
        // The March 2026 file's value for August 2025 (first published as 323.364).
        expect(august.map((r) => Number(r.value))).toEqual([323.291]);
      });

      it('as of a date before either publication: no rows, and a gap saying so; a future date is refused', async () => {
        const answer = await board('?asOf=2025-01-01');
        expect(answer.data).toMatchObject({ rows: [], gaps: ['nothing published by 2025-01-01 is held'] });
        const future = await env.app.inject({
          method: 'GET',
          url: '/v1/macro/cpi?asOf=2026-11-26',
          headers: bearer(user.key),
        });
        expect(future.statusCode).toBe(400);
        expect(future.json().error).toBe('invalid_params');
      });
    });
  }
});
