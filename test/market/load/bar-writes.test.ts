// Daily bars are written a batch at a time, with the outcomes one-by-one writes would give: a day held with
// the same prices is unchanged, a new day inserted; a file that gives one day twice with other prices is
// refused by line. Both engines; the rows are Apple's first days of the real export, the first day restated
// with the second's prices.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const AAPL = asset('market/ahmedhussain47-Praktikum-Equity-Analysis-Embedding/AAPL.csv');
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`daily bars written in batches on ${engine}`, () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv({ engine });
    });
    afterAll(() => env.close());

    it('give the outcomes of one-by-one writes; a day twice in a file with other figures is refused', async () => {
      const [header, day1, day2] = readFileSync(AAPL, 'utf8').split('\n');
      const restated = `${day1!.slice(0, 10)}${day2!.slice(10)}`;
      const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bars-'));
      const twice = path.join(dir, 'aapl-twice.csv');
      writeFileSync(twice, [header, day1, day2, restated, ''].join('\n'));
      const close = async (date: string) => {
        const answer = await HISTORY.run(env.deps, {
          tickers: ['AAPL'],
          fields: ['PX_LAST'],
          start: date,
          end: date,
        });
        return (JSON.parse(JSON.stringify(answer.items[0])) as { rows?: { PX_LAST: number }[] }).rows?.[0]
          ?.PX_LAST;
      };
      // The first day again with the second day's prices: refused by line, never the last row taken.
      await expect(loadFile(env.deps, prices, twice)).rejects.toThrow(
        `aapl-twice.csv:4: a second row for AAPL on ${day1!.slice(0, 10)}`,
      );
      expect(await close('2019-01-02')).toBeUndefined();
      const file = path.join(dir, 'aapl.csv');
      writeFileSync(file, [header, day1, day2, ''].join('\n'));
      expect(await loadFile(env.deps, prices, file)).toMatchObject({ inserted: 2, revised: 0, unchanged: 0 });
      expect(await close('2019-01-02')).toBeCloseTo(Number(day1!.split(',')[5]), 4);
      expect(await close('2019-01-03')).toBeCloseTo(Number(day2!.split(',')[5]), 4);
      expect(await loadFile(env.deps, prices, file)).toMatchObject({ inserted: 0, revised: 0, unchanged: 2 });
    });
  });
}
