// A price file is taken as a listing's daily bars only when it is daily and read in its own unit: yfinance's
// weekly AV.L table and its REL.L table (prices in pounds, dividends in pence) read without --unit are refused
// by line with the option that reads them, and nothing of them is stored; a file a hundredfold off the closes
// the store holds for the listing is refused the same way.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { instrumentOf } from '../../../src/market/instrument/instrument.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

const REPAIR = path.resolve('test/fixtures/market/repair');
const dir = mkdtempSync(path.join(tmpdir(), 'price-checks-'));

function plain(name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, gunzipSync(readFileSync(path.join(REPAIR, `${name}.gz`))));
  return file;
}

describe('what a price file must show before it is stored', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  const prices = () => LOADERS.prices as NonNullable<typeof LOADERS.prices>;
  const held = async (ticker: string) => (await env.deps.market.series(instrumentOf(ticker))).length;

  it('refuses weekly bars as daily bars, at the ninth row', async () => {
    // AV-L-1wk-bad-stock-split.csv: Mondays from 2021-12-13, seven days apart.
    await expect(
      loadFile(env.deps, prices(), plain('AV-L-1wk-bad-stock-split.csv'), { ticker: 'AV.L', unit: 'main' }),
    ).rejects.toThrow(
      /AV-L-1wk-bad-stock-split\.csv:10: AV\.L's rows are 7 days apart, all on one weekday: these are weekly bars/,
    );
    expect(await held('AV.L')).toBe(0);
  });

  it('refuses a Yahoo chart whose dataGranularity is not 1d', async () => {
    // No real chart of weekly bars is held: Apple's real daily chart, its meta saying 1wk.
    const recording = JSON.parse(
      readFileSync(path.resolve('test/fixtures/market/chart-AAPL-2020-08-31-to-2020-11-07.json'), 'utf8'),
    );
    const body = recording.response?.bodyJson ?? recording;
    expect(body.chart.result[0].meta.dataGranularity).toBe('1d');
    body.chart.result[0].meta.dataGranularity = '1wk';
    const file = path.join(dir, 'chart-AAPL-1wk.json');
    writeFileSync(file, JSON.stringify(recording));
    await expect(
      loadFile(env.deps, LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>, file),
    ).rejects.toThrow(/chart-AAPL-1wk\.json: its bars are of 1wk \(the chart's dataGranularity\)/);
    expect(await held('AAPL')).toBe(0);
  });

  it('reads a daily file of a thinly traded listing as daily bars', async () => {
    // LA.V: days without a trade (volume 0) and gaps of up to four days.
    const report = await loadFile(env.deps, prices(), plain('LA-V-1d-bad-stock-split.csv'), {
      ticker: 'LA.V',
    });
    expect(report.inserted).toBeGreaterThan(40);
  });

  it('refuses pence dividends beside pound prices read without --unit, naming --unit main', async () => {
    const file = plain('REL-L-1d-bad-div.csv');
    // The table's first two dividends, 35.5 (2022-04-28) and 15.7 (2022-08-04), against closes of 24.15 and 24.32.
    await expect(loadFile(env.deps, prices(), file, { ticker: 'REL.L' })).rejects.toThrow(
      /REL\.L's dividends are in another unit than its prices: 35\.5 on 2022-04-28 \(147% of the close before it.*15\.7 on 2022-08-04.*pass --unit main/,
    );
    expect(await held('REL.L')).toBe(0);
    // Read as the option says, the file loads.
    const report = await loadFile(env.deps, prices(), file, { ticker: 'REL.L', unit: 'main' });
    expect(report.inserted).toBeGreaterThan(600);
  });

  it('refuses a dividend worth more than the share, which no repair could mend, by file and line', async () => {
    // CALM's real table with its first dividend (0.125 on 2022-04-26) written a thousand times over.
    const lines = readFileSync(
      path.resolve('test/fixtures/market/actions/CALM-1d-no-bad-divs.csv'),
      'utf8',
    ).split('\n');
    const at = lines.findIndex((line) => line.startsWith('2022-04-26'));
    const cells = (lines[at] as string).split(',');
    const names = (lines[0] as string).split(',');
    cells[names.indexOf('Dividends')] = '125';
    lines[at] = cells.join(',');
    const file = path.join(dir, 'CALM-bad.csv');
    writeFileSync(file, lines.join('\n'));
    await expect(loadFile(env.deps, prices(), file, { ticker: 'CALM' })).rejects.toThrow(
      new RegExp(
        `CALM-bad\\.csv:${at + 1}: CALM's dividend of 125 on 2022-04-26 is \\d+% of the close before it`,
      ),
    );
    expect(await held('CALM')).toBe(0);
  });

  it('refuses a file a hundredfold off the closes held for the same days, naming the unit that reads it', async () => {
    // REL.L is held in pounds (24.15 on 2022-04-27); the same table read as pence is 0.2415.
    const file = path.join(dir, 'REL-L-prices.csv');
    const table = readFileSync(plain('REL-L-1d-bad-div.csv'), 'utf8').split('\n');
    // Without its dividend column the file says nothing of dividends: only its level can tell.
    writeFileSync(file, table.map((line) => line.split(',').slice(0, 7).join(',')).join('\n'));
    await expect(loadFile(env.deps, prices(), file, { ticker: 'REL.L' })).rejects.toThrow(
      /REL\.L's close of 0\.2237 on 2022-01-06 is a hundredth of the close held for that day, 22\.37: the file is read in the other unit; pass --unit main/,
    );
    const again = await loadFile(env.deps, prices(), file, { ticker: 'REL.L', unit: 'main' });
    expect(again.revised).toBe(0);
  });
});
