// Point in time on the energy board: the EIA's stocks workbook as published with the week ending 6 February
// 2026 (Wednesday 11 February, 10:30 New York), then Table 1 of the week ending 5 June 2026 (10 June). As of a
// day between the two, the board is the February one; before the first, it is empty and says so. Both engines.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';
import { haveShared } from '../helpers/shared.js';

const EIA = path.resolve('../shared/data/eia');
const NOW = new Date('2026-11-25T12:00:00Z');

describe.skipIf(!haveShared(path.join(EIA, 'psw01.xls')))('energy inventories as known on a date', () => {
  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let user: Customer;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => NOW });
        user = await customer(env.deps);
        const eia = LOADERS.eia as NonNullable<typeof LOADERS.eia>;
        await loadFile(env.deps, eia, path.join(EIA, 'psw01.xls'), { published: '2026-02-11T15:30:00Z' });
        await loadFile(env.deps, eia, path.join(EIA, 'wpsr_table1_week_ending_2026-06-05.csv'), {
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
