// A file loads whole and right, or not at all (on each engine), on real files of the agencies and of a price
// export, cut or altered here as a transfer or an editor would: a last line cut inside a number or before its
// last fields, an empty file, a header alone, two rows that disagree about one day are refused by file and line,
// and nothing of them is kept; the whole file, ending without a line break as Treasury's do, loads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { ENGINES, type TestEnv, testEnv } from '../helpers/env.js';
import { real } from '../helpers/real-data.js';

const PAR_2019 = readFileSync(real('treasury/par-2019_full-year.csv'), 'utf8');
const AAPL = readFileSync(path.resolve('test/fixtures/market/AAPL.csv'), 'utf8');
const BLS_ALL_ITEMS = readFileSync(path.resolve('assets/bls/cu.data.1.AllItems'), 'utf8');
const treasury = LOADERS.treasury as NonNullable<typeof LOADERS.treasury>;
const bls = LOADERS.bls as NonNullable<typeof LOADERS.bls>;
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;

/** The file's lines without the line break its last one may have. */
const linesOf = (text: string) => text.replace(/\n$/, '').split('\n');

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`whole files on ${engine}`, () => {
    let env: TestEnv;
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-whole-'));
    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => new Date('2026-12-07T12:00:00Z') });
    });
    afterAll(async () => {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const write = (name: string, text: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const recorded = async (name: string) =>
      (await env.deps.store.db.selectFrom('source_files').select('name').where('name', '=', name).execute())
        .length;

    it('a Treasury file cut inside its last number is refused by line, and nothing of it is kept', async () => {
      const lines = linesOf(PAR_2019);
      const whole = lines.join('\n');
      // The oldest day is the last line: 01/02/2019, its 30-year yield written "2.97"; cut to "2.9".
      expect(lines.at(-1)).toMatch(/^01\/02\/2019,.*,2\.97$/);
      const cut = write('par-2019_cut.csv', whole.slice(0, -1));
      await expect(loadFile(env.deps, treasury, cut)).rejects.toThrow(
        `par-2019_cut.csv:${lines.length}: the last line ends in "2.9" where every earlier value of its column has 2 decimals: the file is cut short`,
      );
      expect(await recorded('par-2019_cut.csv')).toBe(0);
      // Cut before its last fields: fewer fields than the header.
      const short = whole.slice(0, whole.lastIndexOf(',', whole.length - 12));
      const fields = short.slice(short.lastIndexOf('\n') + 1).split(',').length;
      expect(fields).toBeLessThan(13);
      const shorter = write('par-2019_fields.csv', short);
      await expect(loadFile(env.deps, treasury, shorter)).rejects.toThrow(
        `par-2019_fields.csv:${lines.length}: the row has ${fields} fields where the header has 13: the file is cut short`,
      );
      expect(await recorded('par-2019_fields.csv')).toBe(0);
    });

    it("a BLS file cut inside its last value is refused: the row lacks the footnotes' field", async () => {
      const text = BLS_ALL_ITEMS.replace(/\r?\n$/, '');
      const last = text.slice(text.lastIndexOf('\n') + 1);
      expect(last.split('\t')).toHaveLength(5);
      // Cut in the value ("271.826" → "271.8"): the footnotes' field after it is gone too.
      const cut = write('cu.data.1.AllItems', text.slice(0, text.lastIndexOf('\t') - 2));
      await expect(loadFile(env.deps, bls, cut)).rejects.toThrow(
        `cu.data.1.AllItems:${text.split('\n').length}: the row has 4 fields where the header has 5`,
      );
      expect(await recorded('cu.data.1.AllItems')).toBe(0);
    });

    it('the whole Treasury file without a line break at its end loads, every day of it', async () => {
      const lines = linesOf(PAR_2019);
      const file = write('par-2019_whole.csv', lines.join('\n'));
      const report = await loadFile(env.deps, treasury, file);
      expect(report.lines).toBe(
        lines.slice(1).reduce(
          (n, line) =>
            n +
            line
              .split(',')
              .slice(1)
              .filter((v) => v !== '').length,
          0,
        ),
      );
      expect(report.firstDate).toBe('2019-01-02');
      expect(await recorded('par-2019_whole.csv')).toBe(1);
    });

    it('two rows of one day that disagree are refused by line; the same row twice is read once', async () => {
      const lines = linesOf(PAR_2019);
      // 12/31/2019 again, its 1-month yield 1.48 written 1.49.
      const altered = lines[1]!.replace(/^(12\/31\/2019,)1\.48,/, '$11.49,');
      expect(altered).not.toBe(lines[1]);
      const conflicting = write('par-2019_twice.csv', [lines[0], lines[1], lines[2], altered].join('\n'));
      await expect(loadFile(env.deps, treasury, conflicting)).rejects.toThrow(
        /par-2019_twice\.csv:4: a second record for .*date 2019-12-31.* \(line 2 gave it otherwise\)/,
      );
      expect(await recorded('par-2019_twice.csv')).toBe(0);
      const repeated = write('par-2019_repeated.csv', [lines[0], lines[1], lines[1], lines[1]].join('\n'));
      const report = await loadFile(env.deps, treasury, repeated);
      const values = lines[1]!.split(',').slice(1).length;
      expect(report.lines).toBe(3 * values);
      expect(report.inserted + report.revised + report.unchanged).toBe(3 * values);
    });

    it('an empty file and a header alone are refused, and no source file is recorded', async () => {
      const header = write('par-header.csv', `${linesOf(PAR_2019)[0]}\n`);
      await expect(loadFile(env.deps, treasury, header)).rejects.toThrow(
        'par-header.csv: the file holds a header and no days',
      );
      const empty = write('AAPL_empty.csv', '');
      await expect(loadFile(env.deps, prices, empty, { ticker: 'AAPL' })).rejects.toThrow(/AAPL_empty\.csv/);
      const priceHeader = write('AAPL_header.csv', `${linesOf(AAPL)[0]}\n`);
      await expect(loadFile(env.deps, prices, priceHeader, { ticker: 'AAPL' })).rejects.toThrow(
        'AAPL_header.csv: the file holds no prices',
      );
      for (const name of ['par-header.csv', 'AAPL_empty.csv', 'AAPL_header.csv'])
        expect(await recorded(name)).toBe(0);
    });

    it('a price file cut before its close, or inside a close written to fixed decimals, is refused', async () => {
      const lines = linesOf(AAPL);
      const last = lines.at(-1)!;
      // "2023-08-28,180.089996,180.59…": cut inside the open, before the close.
      const cut = write('AAPL_cut.csv', [...lines.slice(0, -1), last.slice(0, 17)].join('\n'));
      await expect(loadFile(env.deps, prices, cut, { ticker: 'AAPL' })).rejects.toThrow(
        `AAPL_cut.csv:${lines.length}: the row has 2 fields where the header has 7`,
      );
      // The dates and closes alone, as a close-only export writes them (six decimals every row), the last cut.
      const closes = lines.map((line) =>
        line
          .split(',')
          .filter((_, i) => i === 0 || i === 4)
          .join(','),
      );
      const close = closes.at(-1)!.split(',')[1]!;
      expect(close).toMatch(/^\d+\.\d{6}$/);
      const cutClose = write('AAPL_close_cut.csv', closes.join('\n').slice(0, -4));
      await expect(loadFile(env.deps, prices, cutClose, { ticker: 'AAPL' })).rejects.toThrow(
        /AAPL_close_cut\.csv:\d+: the last line ends in "\d+\.\d{2}" where every earlier value of its column has 6 decimals/,
      );
      expect(await recorded('AAPL_close_cut.csv')).toBe(0);
    });

    it('two rows of one listing and day that differ are refused by line, not the last taken', async () => {
      const lines = linesOf(AAPL);
      const day = lines[2]!.split(',')[0]!;
      const other = lines[2]!.replace(/,(\d+)$/, (_, volume: string) => `,${Number(volume) + 1}`);
      const twice = write('AAPL_twice.csv', [lines[0], lines[1], lines[2], other, lines[3]].join('\n'));
      await expect(loadFile(env.deps, prices, twice, { ticker: 'AAPL' })).rejects.toThrow(
        `AAPL_twice.csv:4: a second row for AAPL on ${day}, with other figures than the line before`,
      );
      expect(await recorded('AAPL_twice.csv')).toBe(0);
    });
  });
}
