import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownAt } from '../../../src/datasets/known.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, readText, real } from '../../helpers/real-data.js';

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

describe('cpi: the same files in any order give the same answer for every date', () => {
  // The March 2026 vintage (item list, series catalogue, all items; published 2026-04-10) and the August 2025
  // vintage (its series catalogue and special aggregates; published 2025-09-11), loaded newest first into one
  // store and oldest first into another.
  const march: [string, string][] = [
    [asset('bls/cu.item'), APRIL],
    [asset('bls/cu.series'), APRIL],
    [MARCH_2026, APRIL],
  ];
  const august: [string, string][] = [
    [real('bls/cu_2025-08/cu.series.zip'), SEPTEMBER],
    [AUGUST_2025, SEPTEMBER],
  ];
  const stores: Record<string, { env: TestEnv; user: Customer }> = {};
  beforeAll(async () => {
    const bls = LOADERS.bls as NonNullable<typeof LOADERS.bls>;
    for (const [name, files] of [
      ['newest first', [...march, ...august]],
      ['oldest first', [...august, ...march]],
    ] as const) {
      const env = await testEnv({ clock: () => NOW });
      const user = await customer(env.deps);
      for (const [file, published] of files) await loadFile(env.deps, bls, file, { published });
      stores[name] = { env, user };
    }
  }, 120_000);
  afterAll(async () => {
    for (const { env } of Object.values(stores)) await env.close();
  });
  const board = async (name: string, asOf?: string) => {
    const { env, user } = stores[name]!;
    const res = await env.app.inject({
      method: 'GET',
      url: `/v1/macro/cpi${asOf ? `?asOf=${asOf}` : ''}`,
      headers: bearer(user.key),
    });
    expect(res.statusCode, res.body).toBe(200);
    // When each file was loaded differs between the stores; what they say of the data must not.
    const { retrievedAt: _r, ...data } = res.json().data;
    const { lastLoad: _l, ...coverage } = res.json().meta.coverage;
    return { data, coverage };
  };

  it('on 1 October 2025 both serve August 2025’s components, though the item list was loaded as of April 2026', async () => {
    const answer = await board('newest first', '2025-10-01');
    expect(answer.data.release.period).toBe('2025-08');
    // 34 components of the special-aggregates file with an August 2025 value, labelled from the item list.
    expect(answer.data.rows).toHaveLength(34);
    expect(answer.data.rows.every((r: { label: string }) => r.label.length > 0)).toBe(true);
  });

  it('every date reads the same from both stores', async () => {
    for (const asOf of [
      '2025-09-10',
      '2025-09-11',
      '2025-10-01',
      '2026-04-09',
      '2026-04-10',
      '2026-05-01',
      undefined,
    ])
      expect(await board('oldest first', asOf), asOf ?? 'now').toEqual(await board('newest first', asOf));
  });
});
