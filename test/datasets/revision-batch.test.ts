// Revisioned records written in batches give the outcomes of writing them one at a time: a key twice in a
// file is two revisions with the later one current, across batch boundaries too; a reload changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { energyImporter } from '../../src/datasets/energy/import.js';
import { importRecords } from '../../src/ingest/import.js';
import { ENGINES, type TestEnv, testEnv } from '../helpers/env.js';

type Observation = { type: 'observation'; series: string; weekEnding: string; value: number };

const observation = (series: string, day: number, value: number): Observation => ({
  type: 'observation',
  series,
  weekEnding: new Date(Date.UTC(1990, 0, 5) + day * 7 * 86_400_000).toISOString().slice(0, 10),
  value,
});

async function* lines(records: Observation[]) {
  let line = 0;
  for (const value of records) yield { line: ++line, value };
}

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`revisioned writes in batches on ${engine}`, () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv({ engine });
    });
    afterAll(() => env.close());

    const load = (records: Observation[]) =>
      importRecords(env.deps.store.db, energyImporter, lines(records), 'test', env.deps.clock());
    const stored = (series: string) =>
      env.deps.store.db
        .selectFrom('energy_observations')
        .select(['week_ending', 'value', 'revision', 'is_current'])
        .where('series_id', '=', series)
        .orderBy('week_ending')
        .orderBy('revision')
        .execute();

    it('a key twice in one file: two revisions, the later current', async () => {
      const file = [observation('T.A', 0, 10), observation('T.A', 0, 11), observation('T.A', 1, 12)];
      expect(await load(file)).toMatchObject({ lines: 3, inserted: 2, revised: 1, unchanged: 0 });
      expect(
        (await stored('T.A')).map((r) => [r.week_ending, Number(r.value), r.revision, r.is_current]),
      ).toEqual([
        ['1990-01-05', 10, 1, 0],
        ['1990-01-05', 11, 2, 1],
        ['1990-01-12', 12, 1, 1],
      ]);
      // Loaded again, the first line differs from what is current, then the second restores it.
      expect(await load(file)).toMatchObject({ lines: 3, inserted: 0, revised: 2, unchanged: 1 });
      expect((await stored('T.A')).filter((r) => r.is_current === 1).map((r) => Number(r.value))).toEqual([
        11, 12,
      ]);
    });

    it('5,000 records over several batches; a key changed 4,000 lines later; a reload changes nothing', async () => {
      const file = Array.from({ length: 5000 }, (_, i) => observation('T.B', i, i));
      file[4500] = observation('T.B', 7, 700);
      const first = await load(file);
      expect(first).toMatchObject({ lines: 5000, inserted: 4999, revised: 1, unchanged: 0 });
      const rows = await stored('T.B');
      expect(rows).toHaveLength(5000);
      expect(rows.filter((r) => r.is_current === 1)).toHaveLength(4999);
      expect(
        rows
          .filter((r) => r.week_ending === observation('T.B', 7, 0).weekEnding)
          .map((r) => [Number(r.value), r.revision, r.is_current]),
      ).toEqual([
        [7, 1, 0],
        [700, 2, 1],
      ]);
      expect(await load(file)).toMatchObject({ lines: 5000, inserted: 0, revised: 2, unchanged: 4998 });
    });
  });
}
