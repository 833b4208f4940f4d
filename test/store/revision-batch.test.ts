// Revisioned records written in batches give the outcomes of writing them one at a time; a key given twice in a
// file with other values is refused by line, across batch boundaries too, and the same record twice is read
// once; a reload changes nothing.
// Each revision says when it became known and when it was superseded; a revision published before the
// current one (a backfill) takes its place in that history and does not become current.
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

    it('a key twice in one file with other values is refused by line, nothing kept; the same twice is read once', async () => {
      const file = [observation('T.A', 0, 10), observation('T.A', 0, 11), observation('T.A', 1, 12)];
      await expect(load(file)).rejects.toThrow(
        /^test:2: a second record for series_id T\.A, week_ending 1990-01-05 \(line 1 gave it otherwise\)/,
      );
      expect(await stored('T.A')).toEqual([]);
      const repeated = [observation('T.A', 0, 10), observation('T.A', 0, 10), observation('T.A', 1, 12)];
      expect(await load(repeated)).toMatchObject({ lines: 3, inserted: 2, revised: 0, unchanged: 1 });
      expect(
        (await stored('T.A')).map((r) => [r.week_ending, Number(r.value), r.revision, r.is_current]),
      ).toEqual([
        ['1990-01-05', 10, 1, 1],
        ['1990-01-12', 12, 1, 1],
      ]);
    });

    it('5,000 records over several batches; a key changed 4,000 lines later is refused; a reload changes nothing', async () => {
      const file = Array.from({ length: 5000 }, (_, i) => observation('T.B', i, i));
      const contradicting = [...file];
      contradicting[4500] = observation('T.B', 7, 700);
      await expect(load(contradicting)).rejects.toThrow(
        /^test:4501: a second record for .* \(line 8 gave it otherwise\)/,
      );
      expect(await stored('T.B')).toEqual([]);
      const first = await load(file);
      expect(first).toMatchObject({ lines: 5000, inserted: 5000, revised: 0, unchanged: 0 });
      const rows = await stored('T.B');
      expect(rows).toHaveLength(5000);
      expect(rows.filter((r) => r.is_current === 1)).toHaveLength(5000);
      expect(await load(file)).toMatchObject({ lines: 5000, inserted: 0, revised: 0, unchanged: 5000 });
    });

    const history = (series: string) =>
      env.deps.store.db
        .selectFrom('energy_observations')
        .select(['value', 'is_current', 'known_at', 'superseded_at'])
        .where('series_id', '=', series)
        .orderBy('known_at')
        .execute()
        .then((rows) => rows.map((r) => [Number(r.value), r.is_current, r.known_at, r.superseded_at]));
    const published = (records: Observation[], at: string) =>
      importRecords(
        env.deps.store.db,
        energyImporter,
        lines(records),
        'test',
        env.deps.clock(),
        undefined,
        at,
      );
    const APRIL = '2026-04-10T12:30:00.000Z';
    const SEPTEMBER = '2025-09-11T12:30:00.000Z';
    const JUNE = '2025-06-11T12:30:00.000Z';

    it('a newer publication supersedes the current revision from its own time', async () => {
      await published([observation('T.C', 0, 10)], SEPTEMBER);
      expect(await published([observation('T.C', 0, 11)], APRIL)).toMatchObject({ revised: 1 });
      expect(await history('T.C')).toEqual([
        [10, 0, SEPTEMBER, APRIL],
        [11, 1, APRIL, null],
      ]);
    });

    it('an older vintage loaded after a newer one stays in its place: the newer stays current', async () => {
      await published([observation('T.D', 0, 11)], APRIL);
      expect(await published([observation('T.D', 0, 10)], SEPTEMBER)).toMatchObject({ inserted: 1 });
      expect(await history('T.D')).toEqual([
        [10, 0, SEPTEMBER, APRIL],
        [11, 1, APRIL, null],
      ]);
      // A still older vintage goes before it; the same vintage again changes nothing.
      expect(await published([observation('T.D', 0, 9)], JUNE)).toMatchObject({ inserted: 1 });
      expect(await published([observation('T.D', 0, 10)], SEPTEMBER)).toMatchObject({ unchanged: 1 });
      expect(await history('T.D')).toEqual([
        [9, 0, JUNE, SEPTEMBER],
        [10, 0, SEPTEMBER, APRIL],
        [11, 1, APRIL, null],
      ]);
    });

    it('an older vintage that says what the newer says moves the newer one’s time back', async () => {
      await published([observation('T.E', 0, 11)], APRIL);
      expect(await published([observation('T.E', 0, 11)], SEPTEMBER)).toMatchObject({ revised: 1 });
      expect(await history('T.E')).toEqual([[11, 1, SEPTEMBER, null]]);
    });
  });
}
