// `quarry ingest prices` on the layouts real exports use, each read from a real file of the demo's bundle: a
// re-labelled export with a Ticker column, yfinance's three header rows (London in pence; a ticker re-cased by
// its publisher), Yahoo's download with a lower-case "date", and timestamps with an offset whose last bar is a
// partial day. Day/month/year dates load only with their layout named.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { DATA } from '../../../src/market/data/index.js';
import { HISTORY } from '../../../src/market/history/index.js';
import { singlePrecisionPrice } from '../../../src/market/load/prices.js';
import { SEARCH } from '../../../src/market/search/index.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const PRICES = asset('market');
const file = (name: string) => path.join(PRICES, name);
const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;

describe('daily price files as real exports write them', () => {
  let env: TestEnv;
  const load = (name: string, options: Record<string, string> = {}) =>
    loadFile(env.deps, prices, name.startsWith('/') ? name : file(name), options);
  const closes = async (ticker: string, start: string, end: string) => {
    const answer = await HISTORY.run(env.deps, { tickers: [ticker], fields: ['PX_LAST'], start, end });
    return JSON.parse(JSON.stringify(answer.items[0])) as {
      rows?: { date: string; PX_LAST: number }[];
      error?: { message: string };
    };
  };

  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('reads a re-labelled export and takes the instrument from its Ticker column', async () => {
    const report = await load('ahmedhussain47-Praktikum-Equity-Analysis-Embedding/AAPL.csv');
    expect(report).toMatchObject({ inserted: 1843, firstDate: '2019-01-02', lastDate: '2026-05-01' });
    const item = await closes('AAPL', '2026-04-30', '2026-05-01');
    // Written 280.1400146484375 in the file: 280.14 in single precision, read back as 280.14.
    expect(item.rows?.at(-1)).toEqual({ date: '2026-05-01', PX_LAST: 280.14 });
  });

  it('refuses a --ticker the file contradicts, naming both', async () => {
    await expect(
      load('ahmedhussain47-Praktikum-Equity-Analysis-Embedding/TSLA.csv', { ticker: 'NVDA' }),
    ).rejects.toThrow(/TSLA.csv:2: the file is of TSLA, not of --ticker NVDA/);
  });

  it("reads yfinance's three header rows: London in pence, a re-cased ticker", async () => {
    const barc = await load('Imman-dot-quant-pairs-trading/BARC.L.csv');
    expect(barc).toMatchObject({ inserted: 2649, firstDate: '2015-01-02', lastDate: '2025-06-27' });
    // The Close column (156.75999450683594 GBp: 156.76 in single precision, stored as pounds and served back
    // in pence), not the Adj Close column beside it (156.57).
    expect((await closes('BARC LN Equity', '2022-06-14', '2022-06-14')).rows).toEqual([
      { date: '2022-06-14', PX_LAST: 156.76 },
    ]);
    // A window past the file's end says what is held rather than that nothing is.
    expect((await closes('BARC.L', '2026-01-01', '2026-06-30')).error?.message).toBe(
      'No history for BARC.L between 2026-01-01 and 2026-06-30: the bars held for BARC.L run from 2015-01-02 to 2025-06-27. Ask for a window within them.',
    );
    const btc = await load('elvisbinks-risk-on-risk-off-crypto/BTC-USD.csv');
    expect(btc).toMatchObject({ inserted: 3623, lastDate: '2025-12-01' });
    // 85942.140625 in the file, the single-precision number nearest 85942.14.
    expect((await closes('BTC-USD', '2025-12-01', '2025-12-01')).rows?.[0]?.PX_LAST).toBe(85942.14);
  });

  it('--name gives a listing its file does not name the company of: search and NAME answer it', async () => {
    const names = async (q: string) =>
      (await SEARCH.run(env.deps, { q })).items.map((i) => [i.symbol, i.name, i.source]);
    const name = async (ticker: string) =>
      ((await DATA.run(env.deps, { tickers: [ticker], fields: ['NAME'] })).items[0] as { values?: unknown })
        .values;
    const vod = 'Imman-dot-quant-pairs-trading/VOD.L.csv';
    // The file's three header rows name the ticker only: bars alone are found by their symbol.
    expect(await load(vod)).toMatchObject({ inserted: 2649 });
    expect(await names('vodafone')).toEqual([]);
    expect(await name('VOD.L')).toEqual({ NAME: 'VOD' });
    // The 2,649 bars are held already; the name is the one record added.
    expect(await load(vod, { name: 'Vodafone Group Plc' })).toMatchObject({ inserted: 1, unchanged: 2649 });
    expect(await names('vodafone')).toEqual([['VOD.L', 'Vodafone Group Plc', 'stored']]);
    expect(await names('group')).toEqual([['VOD.L', 'Vodafone Group Plc', 'stored']]);
    expect(await names('afone')).toEqual([]);
    expect(await name('VOD LN Equity')).toEqual({ NAME: 'Vodafone Group Plc' });
    expect(await load(vod, { name: 'Vodafone Group Public Limited Company' })).toMatchObject({ revised: 1 });
    expect(await name('VOD.L')).toEqual({ NAME: 'Vodafone Group Public Limited Company' });
  });

  it('reads a file holding many tickers, as bulk end-of-day exports write it, each row under its own', async () => {
    // Three real exports joined under one header, their rows interleaved by date as a bulk export lists them.
    const names = ['AAPL', 'MSFT', 'NVDA'];
    const files = names.map((t) =>
      readFileSync(file(`ahmedhussain47-Praktikum-Equity-Analysis-Embedding/${t}.csv`), 'utf8')
        .trim()
        .split('\n'),
    );
    const header = files[0]![0]!;
    const rows = files
      .flatMap((lines) => lines.slice(1))
      .sort((a, b) => a.slice(0, 10).localeCompare(b.slice(0, 10)));
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-prices-')), 'eod.csv');
    writeFileSync(copy, `${header}\n${rows.join('\n')}\n`);
    // A fresh store: each ticker's bars as its own file holds them, however the rows interleave.
    const fresh = await testEnv();
    try {
      const report = await loadFile(fresh.deps, prices, copy, {});
      expect(report).toMatchObject({
        inserted: rows.length,
        firstDate: '2019-01-02',
        lastDate: '2026-05-01',
      });
      for (const [i, ticker] of names.entries()) {
        const lines = files[i] ?? [];
        const last = (lines[lines.length - 1] ?? '').split(',');
        const answer = await HISTORY.run(fresh.deps, {
          tickers: [ticker],
          fields: ['PX_LAST'],
          start: last[0],
          end: last[0],
        });
        const item = JSON.parse(JSON.stringify(answer.items[0])) as { rows: { PX_LAST: number }[] };
        // The file's close, as written to seven significant figures (the stored single-precision reading).
        expect(item.rows[0]?.PX_LAST).toBeCloseTo(Number(last[5]), 4);
      }
      // --ticker names the one instrument a file holds; --name one listing.
      await expect(loadFile(fresh.deps, prices, copy, { ticker: 'AAPL' })).rejects.toThrow(
        /eod.csv:\d+: ticker (MSFT|NVDA) differs from --ticker AAPL/,
      );
      await expect(loadFile(fresh.deps, prices, copy, { name: 'Apple Inc.' })).rejects.toThrow(
        /eod.csv:\d+: --name names one listing; the file holds AAPL and (MSFT|NVDA)/,
      );
    } finally {
      await fresh.close();
    }
  });

  it('asks for --ticker when a file does not name its instrument', async () => {
    await expect(load('jaiveer28-ets-simulator/^GSPC.csv')).rejects.toThrow(
      /name the instrument with --ticker/,
    );
    const report = await load('jaiveer28-ets-simulator/^GSPC.csv', { ticker: '^GSPC' });
    expect(report).toMatchObject({ inserted: 1255, lastDate: '2025-12-31' });
  });

  it('reads fields written with spaces around them; a field of spaces alone is missing, not zero', async () => {
    const [header, ...rows] = readFileSync(
      file('ahmedhussain47-Praktikum-Equity-Analysis-Embedding/TSLA.csv'),
      'utf8',
    )
      .trim()
      .split('\n');
    // The first 20 days, every field padded, the second day's volume blank but for spaces.
    const padded = rows.slice(0, 20).map((row, i) => {
      const cells = row.split(',').map((cell) => ` ${cell} `);
      if (i === 1) cells[7] = '   ';
      return cells.join(',');
    });
    const spaced = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-prices-')), 'TSLA-spaced.csv');
    writeFileSync(spaced, `${[header, ...padded].join('\n')}\n`);
    expect(await load(spaced)).toMatchObject({ inserted: 20, firstDate: '2019-01-02' });
    const [first, second] = rows.map((row) => row.split(','));
    const answer = await HISTORY.run(env.deps, {
      tickers: ['TSLA'],
      fields: ['PX_LAST', 'PX_VOLUME'],
      start: '2019-01-02',
      end: '2019-01-03',
    });
    const served = JSON.parse(JSON.stringify(answer.items[0])).rows as {
      date: string;
      PX_LAST: number;
      PX_VOLUME: number | null;
    }[];
    expect(served.map((r) => r.date)).toEqual([first![0], second![0]]);
    expect(served.map((r) => Math.fround(r.PX_LAST))).toEqual(
      [first, second].map((f) => Math.fround(Number(f![5]))),
    );
    expect(served.map((r) => r.PX_VOLUME)).toEqual([Number(first![7]), null]);
  });

  it('reads timestamps with an offset as their trading day, and --through leaves out a partial bar', async () => {
    const report = await load('fsoaz-financial-market-dashboard/^GSPC.csv', { through: '2026-06-26' });
    // 2024-07-01..2025-12-31 are the same bars the previous file gave; 2026 is new.
    expect(report).toMatchObject({ firstDate: '2024-07-01', lastDate: '2026-06-26', revised: 0 });
    expect(report.inserted + report.unchanged).toBe(499);
    const item = await closes('SPX Index', '2026-06-25', '2026-06-30');
    expect(item.rows).toEqual([
      // 7357.490234375 and 7354.02001953125 in the file.
      { date: '2026-06-25', PX_LAST: 7357.49 },
      { date: '2026-06-26', PX_LAST: 7354.02 },
    ]);
    await expect(
      load('fsoaz-financial-market-dashboard/^GSPC.csv', { through: '26/06/2026' }),
    ).rejects.toThrow(/--through 26\/06\/2026: give a date as YYYY-MM-DD/);
  });

  it('reads day/month/year dates only with --date-format, and names the first line it cannot read', async () => {
    // The real MSFT export with its dates rewritten day/month/year, as a European spreadsheet saves it.
    const original = readFileSync(
      file('ahmedhussain47-Praktikum-Equity-Analysis-Embedding/MSFT.csv'),
      'utf8',
    );
    const dmy = original.replace(/^(\d{4})-(\d{2})-(\d{2})/gm, '$3/$2/$1');
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-prices-')), 'MSFT.csv');
    writeFileSync(copy, dmy);
    await expect(load(copy)).rejects.toThrow(
      /MSFT.csv:2: date "02\/01\/2019" is not YYYY-MM-DD; name its layout with --date-format DD\/MM\/YYYY or MM\/DD\/YYYY/,
    );
    await expect(load(copy, { 'date-format': 'MM/DD/YYYY' })).rejects.toThrow(
      /MSFT.csv:\d+: date "\d\d\/\d\d\/20\d\d" is not a MM\/DD\/YYYY date/,
    );
    const report = await load(copy, { 'date-format': 'DD/MM/YYYY' });
    expect(report).toMatchObject({ inserted: 1843, firstDate: '2019-01-02', lastDate: '2026-05-01' });
    await expect(load(copy, { 'date-format': 'DD/MM/YY' })).rejects.toThrow(/use DD, MM and YYYY once each/);
  });
});

describe('a price written from single precision, read back at its shortest decimal', () => {
  // The reference: printed to 1, 2, … significant digits until the decimal is the same single again.
  const shortest = (value: number) => {
    if (Math.fround(value) !== value) return value;
    for (let digits = 1; digits <= 9; digits += 1) {
      const printed = Number(value.toPrecision(digits));
      if (Math.fround(printed) === value) return printed;
    }
    return value;
  };

  it('agrees with printing to fewer digits on every number of a real export and on singles of every size', () => {
    const text = readFileSync(file('ahmedhussain47-Praktikum-Equity-Analysis-Embedding/AAPL.csv'), 'utf8');
    const values = text
      .split(/[\n,]/)
      .map(Number)
      .filter((v) => Number.isFinite(v) && v !== 0);
    // Singles from 1e-6 to 1e9, both signs, on a fixed walk (halves that round away from zero among them).
    let seed = 7;
    for (let i = 0; i < 200_000; i += 1) {
      seed = (seed * 48_271) % 2_147_483_647;
      const size = 10 ** ((seed % 160) / 10 - 6);
      values.push(Math.fround((seed % 2 ? -1 : 1) * size * (1 + (seed % 997) / 997)));
    }
    values.push(Math.fround(-387797.375), Math.fround(4163.71875), Math.fround(0.1), 1e7, 280.1400146484375);
    const differing = values.filter((v) => !Object.is(singlePrecisionPrice(v), shortest(v)));
    expect(values.length).toBeGreaterThan(200_000);
    expect(differing).toEqual([]);
    expect(singlePrecisionPrice(280.1400146484375)).toBe(280.14);
  });
});
