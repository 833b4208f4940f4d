import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import type { Database } from '../../../src/store/schema.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('energy inventories as known on a date', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let user: Customer;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => NOW });
        user = await customer(env.deps);
        const eia = LOADERS.eia as NonNullable<typeof LOADERS.eia>;
        await loadFile(env.deps, eia, asset('eia/psw01.xls'), { published: '2026-02-11T15:30:00Z' });
        await loadFile(env.deps, eia, asset('eia/wpsr_table1_week_ending_2026-06-05.csv'), {
          published: '2026-06-10T14:30:00Z',
        });
      }, 60_000);
      afterAll(() => env.close());
      const crude = async (query: string) => {
        const res = await env.app.inject({
          method: 'GET',
          url: `/v1/energy/inventories${query}`,
          headers: bearer(user.key),
        });
        expect(res.statusCode, res.body).toBe(200);
        const { data } = res.json();
        return {
          data,
          crude: data.series.find((s: { id: string }) => s.id === 'WCESTUS1'),
        };
      };

      it('as of a day between the two publications: the week ending 6 February; now: 5 June', async () => {
        expect((await crude('?asOf=2026-03-01')).crude).toMatchObject({ weekEnding: '2026-02-06' });
        expect((await crude('?asOf=2026-06-10')).crude).toMatchObject({
          weekEnding: '2026-06-05',
          value: 426485,
        });
        expect((await crude('')).crude).toMatchObject({ weekEnding: '2026-06-05' });
      });

      it('before the first publication: no series, and a gap saying so', async () => {
        const { data } = await crude('?asOf=2026-02-10');
        expect(data).toMatchObject({
          series: [],
          status: 'partial',
          gaps: ['nothing published by 2026-02-10 is held'],
        });
      });
    });
  }
});

/** When each week's figure of a series became known, as stored. */
async function knownTimes(db: Kysely<Database>, series: string, weeks: string[]) {
  const rows = await db
    .selectFrom('energy_observations')
    .select(['week_ending', 'known_at'])
    .where('series_id', '=', series)
    .where('week_ending', 'in', weeks)
    .orderBy('week_ending')
    .execute();
  return rows.map((r) => [r.week_ending, r.known_at]);
}

// Without a stated publication, a week's figure is known from its report's release on the EIA's calendar:
// petroleum stocks the Wednesday after the week at 10:30 New York, gas storage the Thursday (Thanksgiving week
// the Wednesday at 12:00); the week-ago and year-ago columns of Table 1 restate earlier weeks and are known from
// the load.
describe('energy figures known from the EIA calendar', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => NOW });
        const eia = LOADERS.eia as NonNullable<typeof LOADERS.eia>;
        for (const file of ['psw01.xls', 'ngshistory.xls', 'wpsr_table1_week_ending_2026-06-05.csv'])
          await loadFile(env.deps, eia, asset('eia', file));
      }, 60_000);
      afterAll(() => env.close());

      it('crude stocks: each week from the Wednesday after it, 10:30 New York', async () => {
        expect(await knownTimes(env.deps.store.db, 'WCESTUS1', ['2026-01-30', '2026-02-06'])).toEqual([
          ['2026-01-30', '2026-02-04T15:30:00.000Z'],
          ['2026-02-06', '2026-02-11T15:30:00.000Z'],
        ]);
      });

      it('the week of 5 June from its release on 10 June (EDT); the week before it from the load', async () => {
        expect(await knownTimes(env.deps.store.db, 'WCESTUS1', ['2026-05-29', '2026-06-05'])).toEqual([
          ['2026-05-29', NOW.toISOString()],
          ['2026-06-05', '2026-06-10T14:30:00.000Z'],
        ]);
      });

      it('gas storage: the Thursday after, and the Wednesday at noon in Thanksgiving week', async () => {
        const weeks = ['2025-11-14', '2025-11-21', '2025-11-28'];
        expect(await knownTimes(env.deps.store.db, 'NW2_EPG0_SWO_R48_BCF', weeks)).toEqual([
          ['2025-11-14', '2025-11-20T15:30:00.000Z'],
          ['2025-11-21', '2025-11-26T17:00:00.000Z'],
          ['2025-11-28', '2025-12-04T15:30:00.000Z'],
        ]);
      });
    });
  }
});
