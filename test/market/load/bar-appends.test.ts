// Days after the last one held are appended to their year's block in place, marked as known from their load
// (a daily file no longer copies the year into a new version); a changed day still makes a new version, as
// bar-blocks.test.ts checks. On both engines, from a real export (AAPL, 2019-01-02 to 2026-05-01).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { knownMarks, unpackBars } from '../../../src/market/bars/blocks.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const AAPL = asset('market/ahmedhussain47-Praktikum-Equity-Analysis-Embedding/AAPL.csv');
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`days appended to a held year on ${engine}`, () => {
    let env: TestEnv;
    let now = new Date('2026-04-24T22:00:00Z');
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-appends-'));
    const [header, ...lines] = readFileSync(AAPL, 'utf8').trim().split('\n');
    const dateAt = (header as string)
      .split(',')
      .map((n) => n.toLowerCase())
      .indexOf('date');
    const closeAt = (header as string).split(',').indexOf('close');
    const of2026 = lines.filter((l) => l.split(',')[dateAt]!.startsWith('2026-'));
    const through = (date: string) => lines.filter((l) => l.split(',')[dateAt]! <= date);
    const write = (name: string, rows: string[]) => {
      const file = path.join(dir, name);
      writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
      return file;
    };
    const versions = () =>
      env.deps.store.db
        .selectFrom('market_bar_blocks')
        .select(['known_at', 'superseded_at', 'bars'])
        .where('symbol', '=', 'AAPL')
        .where('year', '=', 2026)
        .orderBy('known_at')
        .execute();

    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => now });
    }, 60_000);
    afterAll(async () => {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('adds the new days to the current block, known from their load; the days before keep their time', async () => {
      const first = through('2026-04-24');
      await loadFile(env.deps, prices, write('AAPL-to-0424.csv', first), {});
      const heldBefore = of2026.filter((l) => l.split(',')[dateAt]! <= '2026-04-24').length;
      now = new Date('2026-05-01T22:00:00Z');
      const report = await loadFile(env.deps, prices, AAPL, {});
      expect(report).toMatchObject({ inserted: lines.length - first.length, revised: 0 });
      const held = await versions();
      expect(held.map((v) => [v.known_at, v.superseded_at])).toEqual([['2026-04-24T22:00:00.000Z', null]]);
      const block = held[0]!;
      expect(knownMarks(2026, block.bars)).toEqual([
        { first: heldBefore, at: Date.parse('2026-05-01T22:00:00Z') },
      ]);
      // Every 2026 day of the file, in order, each close the same single-precision number the file writes.
      const bars = unpackBars(2026, block.bars);
      expect(bars.map((b) => b.date)).toEqual(of2026.map((l) => l.split(',')[dateAt]));
      expect(bars.map((b) => Math.fround(b.close))).toEqual(
        of2026.map((l) => Math.fround(Number(l.split(',')[closeAt]))),
      );
      const answer = await HISTORY.run(env.deps, {
        tickers: ['AAPL'],
        fields: ['PX_LAST'],
        start: '2026-04-27',
        end: '2026-05-01',
      });
      const rows = JSON.parse(JSON.stringify(answer.items[0])).rows as { date: string }[];
      expect(rows.map((r) => r.date)).toEqual(
        of2026.map((l) => l.split(',')[dateAt]!).filter((d) => d >= '2026-04-27'),
      );
    });

    it('the same file again writes nothing; a changed day makes a new version without marks', async () => {
      now = new Date('2026-05-02T22:00:00Z');
      expect(await loadFile(env.deps, prices, AAPL, {})).toMatchObject({ inserted: 0, revised: 0 });
      expect((await versions()).length).toBe(1);
      const changed = lines.map((l) => {
        const cells = l.split(',');
        if (cells[dateAt] === '2026-03-02') cells[closeAt] = '250.5';
        return cells.join(',');
      });
      now = new Date('2026-05-03T22:00:00Z');
      expect(await loadFile(env.deps, prices, write('AAPL-revised.csv', changed), {})).toMatchObject({
        revised: 1,
        inserted: 0,
      });
      const held = await versions();
      expect(held.map((v) => [v.known_at, v.superseded_at])).toEqual([
        ['2026-04-24T22:00:00.000Z', '2026-05-03T22:00:00.000Z'],
        ['2026-05-03T22:00:00.000Z', null],
      ]);
      expect(knownMarks(2026, held[0]!.bars)).toHaveLength(1);
      expect(knownMarks(2026, held[1]!.bars)).toEqual([]);
      expect(unpackBars(2026, held[1]!.bars).find((b) => b.date === '2026-03-02')?.close).toBe(250.5);
    });
  });
}
