// Corporate actions from recorded Yahoo chart answers (AAPL 2020: four dividends and the 4-for-1 split; MSFT's
// 2021 dividends; NVDA's 2021 split; Ørsted's DKK dividend), served by /v1/actions and used by history's
// adjustments. Every expectation is read from the recording itself here, not from the loader.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { real } from '../../helpers/real-data.js';
import { callTool, connect, textOf } from '../../mcp/client.js';

const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
const RECORDINGS = {
  AAPL: path.resolve('test/fixtures/market/actions/AAPL_2020_rec-2021-11-13.json'),
  'ORSTED.CO': path.resolve('test/fixtures/market/actions/ORSTED.CO_2020_rec-2021-11-13.json'),
  MSFT: real('market/yahoo/chart/historical-via-chart-MSFT-dividends-2021-02-01-to-2022-01-31.csv.json'),
  NVDA: real('market/yahoo/chart/historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json'),
};

type Event = { date: number; amount?: number; numerator?: number; denominator?: number };
interface Recorded {
  dates: string[];
  close: number[];
  volume: number[];
  adjclose: number[];
  dividends: { date: string; amount: number }[];
  splits: { date: string; numerator: number; denominator: number }[];
}

/** The recording as Yahoo sent it: days in exchange time, events by ex-date. */
function recorded(file: string): Recorded {
  const body = JSON.parse(readFileSync(file, 'utf8')).response.bodyJson;
  const chart = body.chart.result[0];
  const offset: number = chart.meta.gmtoffset;
  const day = (t: number) => new Date((t + offset) * 1000).toISOString().slice(0, 10);
  const events = (kind: string): Event[] => Object.values(chart.events?.[kind] ?? {});
  return {
    dates: chart.timestamp.map(day),
    close: chart.indicators.quote[0].close,
    volume: chart.indicators.quote[0].volume,
    adjclose: chart.indicators.adjclose[0].adjclose,
    dividends: events('dividends').map((e) => ({ date: day(e.date), amount: e.amount as number })),
    splits: events('splits').map((e) => ({
      date: day(e.date),
      numerator: e.numerator as number,
      denominator: e.denominator as number,
    })),
  };
}

describe('corporate actions', () => {
  let now = Date.parse('2026-11-27T12:00:00Z');
  let env: TestEnv;
  let key: string;
  const loaded: Record<string, Awaited<ReturnType<typeof loadFile>>> = {};
  beforeAll(async () => {
    env = await testEnv({ clock: () => new Date(now) });
    // Barclays' daily bars from a price file, which says nothing of dividends or splits.
    await loadFile(
      env.deps,
      LOADERS.prices as NonNullable<typeof LOADERS.prices>,
      path.resolve('test/fixtures/market/BARC.L.csv'),
      {
        ticker: 'BARC.L',
      },
    );
    for (const [symbol, file] of Object.entries(RECORDINGS))
      loaded[symbol] = await loadFile(env.deps, yahoo, file);
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());

  const get = async (route: string) => {
    const res = await env.app.inject({ method: 'GET', url: route, headers: bearer(key) });
    return { status: res.statusCode, body: res.json() };
  };

  it("answers each recording's dividends and splits by ex-date, oldest first", async () => {
    for (const symbol of ['AAPL', 'MSFT', 'NVDA', 'ORSTED.CO'] as const) {
      const source = recorded(RECORDINGS[symbol]);
      // Each names the recording that loaded it.
      const file = path.basename(RECORDINGS[symbol]);
      const expected = [
        ...source.dividends.map((d) => ({ date: d.date, type: 'dividend', amount: d.amount, file })),
        ...source.splits.map((s) => ({
          date: s.date,
          type: 'split',
          numerator: s.numerator,
          denominator: s.denominator,
          file,
        })),
      ].sort((a, b) => a.date.localeCompare(b.date));
      const { status, body } = await get(`/v1/actions?tickers=${symbol}`);
      expect(status).toBe(200);
      const [item] = body.items;
      expect(item.status).toBe('ok');
      expect(item.actions.map(({ knownAt: _, ...a }: { knownAt: string }) => a)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    // What the provenance names: AAPL's 0.1925 and three 0.205 (today's shares), 4-for-1 on 2020-08-31.
    const { body } = await get('/v1/actions?tickers=AAPL');
    expect(body.items[0].actions.filter((a: { type: string }) => a.type === 'split')).toMatchObject([
      { date: '2020-08-31', numerator: 4, denominator: 1 },
    ]);
  });

  it('says when each action became known, the currency of its amounts, and the adjustment', async () => {
    const { body } = await get('/v1/actions?tickers=ORSTED.CO');
    expect(body.adjust).toBe('split');
    const item = body.items[0];
    expect(item.currency).toBe('DKK');
    expect(item.actions).toEqual([
      {
        date: '2020-03-03',
        type: 'dividend',
        amount: 10.5,
        knownAt: '2026-11-27T12:00:00.000Z',
        file: path.basename(RECORDINGS['ORSTED.CO']),
      },
    ]);
    expect(item.asOf).toBe('2026-11-27T12:00:00.000Z');
  });

  it("adjust=none states each dividend as paid: before the split, four times today's amount", async () => {
    const source = recorded(RECORDINGS.AAPL);
    const split = source.splits[0] as Recorded['splits'][number];
    const { body } = await get('/v1/actions?tickers=AAPL&types=dividend&adjust=none');
    expect(body.adjust).toBe('none');
    const amounts = body.items[0].actions.map((a: { amount: number }) => a.amount);
    expect(amounts).toEqual(
      source.dividends.map((d) =>
        d.date < split.date ? (d.amount * split.numerator) / split.denominator : d.amount,
      ),
    );
    // 0.77 and 0.82 as Apple declared them before the split; 0.205 after.
    expect(amounts).toEqual([0.77, 0.82, 0.82, 0.205]);
  });

  it('filters by window and type, and answers each ticker on its own', async () => {
    const { body } = await get(
      '/v1/actions?tickers=MSFT,NOPE.XX,AAPL&start=2020-08-01&end=2021-05-31&types=dividend',
    );
    const [msft, unknown, aapl] = body.items;
    expect(msft.actions.map((a: { date: string }) => a.date)).toEqual(['2021-02-17', '2021-05-19']);
    expect(aapl.actions.map((a: { date: string }) => a.date)).toEqual(['2020-08-07', '2020-11-06']);
    expect(unknown.status).toBe('error');
    expect(unknown.error.code).toBe('not_found');
  });

  it('refuses a bad type, adjustment or window with invalid_params, for no units', async () => {
    for (const query of [
      'types=bonus',
      'adjust=total',
      'start=2021-01-01&end=2020-01-01',
      'start=2021-13-01',
    ]) {
      const { status, body } = await get(`/v1/actions?tickers=AAPL&${query}`);
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_params');
    }
  });

  it('history adjust=none answers the prices and volumes traded before the split', async () => {
    const source = recorded(RECORDINGS.AAPL);
    const i = source.dates.indexOf('2020-08-28');
    const { body } = await get(
      '/v1/history?tickers=AAPL&fields=PX_LAST,PX_VOLUME&start=2020-08-27&end=2020-08-31&adjust=none',
    );
    expect(body.adjust).toBe('none');
    const rows = body.items[0].rows;
    expect(rows[1].date).toBe('2020-08-28');
    // The recording's close is split-adjusted (124.8075): as traded it was four times that, on a quarter the shares.
    expect(rows[1].PX_LAST).toBeCloseTo((source.close[i] as number) * 4, 3);
    expect(rows[1].PX_LAST).toBeCloseTo(499.23, 6);
    expect(rows[1].PX_VOLUME).toBe((source.volume[i] as number) / 4);
    // From the split on, as held.
    const split = await get('/v1/history?tickers=AAPL&fields=PX_LAST&start=2020-08-31&end=2020-08-31');
    expect(rows[2].PX_LAST).toBe(split.body.items[0].rows[0].PX_LAST);
  });

  it("total return between any two days equals the ratio of Yahoo's own adjusted closes (1e-6)", async () => {
    for (const symbol of ['AAPL', 'MSFT', 'ORSTED.CO'] as const) {
      const source = recorded(RECORDINGS[symbol]);
      const start = source.dates[0];
      const end = source.dates.at(-1);
      const { body } = await get(
        `/v1/history?tickers=${symbol}&fields=PX_LAST,TOT_RETURN_INDEX_GROSS_DVDS&start=${start}&end=${end}&adjust=total`,
      );
      const rows: { date: string; PX_LAST: number; TOT_RETURN_INDEX_GROSS_DVDS: number }[] =
        body.items[0].rows;
      const adj = new Map(source.dates.map((d, i) => [d, source.adjclose[i] as number]));
      expect(rows.length).toBe(source.dates.length);
      let worst = 0;
      for (const anchor of [rows[0], rows[rows.length >> 1], rows.at(-1)]) {
        for (const row of rows) {
          const ours = row.PX_LAST / (anchor?.PX_LAST as number);
          const theirs = (adj.get(row.date) as number) / (adj.get(anchor?.date as string) as number);
          worst = Math.max(worst, Math.abs(ours / theirs - 1));
          expect(row.TOT_RETURN_INDEX_GROSS_DVDS).toBe(row.PX_LAST);
        }
      }
      expect(worst).toBeLessThan(1e-6);
    }
  });

  it('the total-return index beside split-adjusted prices: the newest close, dividends reinvested back', async () => {
    const source = recorded(RECORDINGS.MSFT);
    const { body } = await get(
      '/v1/history?tickers=MSFT&fields=PX_LAST,TOT_RETURN_INDEX_GROSS_DVDS&start=2021-02-01&end=2022-01-28',
    );
    const rows = body.items[0].rows;
    const last = rows.at(-1);
    expect(last.TOT_RETURN_INDEX_GROSS_DVDS).toBe(last.PX_LAST);
    // Before the first dividend the index is below the price by the dividends reinvested since: by as much as
    // Yahoo's adjusted close is, measured against the recording's last day (its adjusted closes also reinvest
    // the dividends paid after the recording ends).
    const first = rows[0];
    const n = source.close.length - 1;
    const theirs = (i: number) => (source.adjclose[i] as number) / (source.close[i] as number);
    expect(first.TOT_RETURN_INDEX_GROSS_DVDS / first.PX_LAST).toBeCloseTo(theirs(0) / theirs(n), 6);
    expect(first.TOT_RETURN_INDEX_GROSS_DVDS).toBeLessThan(first.PX_LAST);
    // Weekly rows carry the index of each week's last day.
    const weekly = await get(
      '/v1/history?tickers=MSFT&fields=PX_LAST,TOT_RETURN_INDEX_GROSS_DVDS&start=2021-02-01&end=2022-01-28&period=weekly',
    );
    const daily = new Map(rows.map((r: { date: string }) => [r.date, r]));
    for (const row of weekly.body.items[0].rows) expect(row).toEqual(daily.get(row.date));
  });

  it('a split-only recording: NVDA as traded before 2021-07-20 is four times the split-adjusted close', async () => {
    const { body: held } = await get(
      '/v1/history?tickers=NVDA&fields=PX_LAST&start=2021-07-16&end=2021-07-20',
    );
    const { body: traded } = await get(
      '/v1/history?tickers=NVDA&fields=PX_LAST&start=2021-07-16&end=2021-07-20&adjust=none',
    );
    const [before, onSplit] = [held.items[0].rows, traded.items[0].rows];
    expect(before.map((r: { date: string }) => r.date)).toEqual(['2021-07-16', '2021-07-19', '2021-07-20']);
    expect(onSplit[0].PX_LAST).toBeCloseTo(before[0].PX_LAST * 4, 6);
    expect(onSplit[1].PX_LAST).toBeCloseTo(before[1].PX_LAST * 4, 6);
    expect(onSplit[2].PX_LAST).toBe(before[2].PX_LAST);
  });

  it('refuses an unknown adjustment in history', async () => {
    const { status, body } = await get('/v1/history?tickers=AAPL&fields=PX_LAST&adjust=dividend');
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_params');
  });

  it('loading the recordings again changes nothing; the dictionary serves the total-return index', async () => {
    expect(loaded.AAPL?.inserted).toBeGreaterThan(253);
    const again = await loadFile(env.deps, yahoo, RECORDINGS.AAPL);
    expect(again).toMatchObject({ inserted: 0, revised: 0 });
    const { body } = await get('/v1/fields');
    expect(body.notServed.map((n: { name: string }) => n.name)).not.toContain('TOT_RETURN_INDEX_GROSS_DVDS');
    const field = body.fields.find((f: { id: string }) => f.id === 'totalReturnIndex');
    expect(field).toMatchObject({ history: true, aliases: [{ name: 'TOT_RETURN_INDEX_GROSS_DVDS' }] });
  });

  it('MCP market.actions and market.history answer what the REST routes answer', async () => {
    const url = await env.app.listen({ port: 0, host: '127.0.0.1' });
    const client = await connect(url, key);
    try {
      const args = { tickers: ['AAPL', 'ORSTED.CO'], types: ['dividend'], adjust: 'none' };
      const result = await callTool(client, 'market.actions', args);
      const rest = await env.app.inject({
        method: 'POST',
        url: '/v1/actions',
        headers: bearer(key),
        payload: args,
      });
      expect(result.structuredContent).toEqual(rest.json());
      const text = textOf(result);
      expect(text).toContain('# AAPL: ok (amounts in USD)\ndate,type,amount');
      expect(text).toContain('2020-05-08,dividend,0.82,');
      const history = {
        tickers: ['AAPL'],
        fields: ['PX_LAST'],
        start: '2020-08-28',
        end: '2020-08-28',
        adjust: 'none',
      };
      const rows = await callTool(client, 'market.history', history);
      expect(textOf(rows)).toContain('adjust none');
      expect(textOf(rows)).toContain('2020-08-28,499.23');
    } finally {
      await client.close();
    }
  });

  it('a changed amount is a new version known from its load; the one it replaces is kept', async () => {
    const recording = JSON.parse(readFileSync(RECORDINGS['ORSTED.CO'], 'utf8'));
    const dividends = recording.response.bodyJson.chart.result[0].events.dividends;
    for (const event of Object.values(dividends) as { amount: number }[]) event.amount = 10.6;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'actions-')), 'ORSTED.CO-revised.json');
    writeFileSync(file, JSON.stringify(recording));
    now = Date.parse('2026-11-27T14:00:00Z');
    const report = await loadFile(env.deps, yahoo, file, { published: '2026-11-27T13:00:00Z' });
    expect(report).toMatchObject({ revised: 1 });
    const { body } = await get('/v1/actions?tickers=ORSTED.CO');
    expect(body.items[0].actions).toEqual([
      {
        date: '2020-03-03',
        type: 'dividend',
        amount: 10.6,
        knownAt: '2026-11-27T13:00:00.000Z',
        file: 'ORSTED.CO-revised.json',
      },
    ]);
    const versions = await env.deps.store.db
      .selectFrom('market_actions')
      .select(['amount', 'known_at', 'superseded_at'])
      .where('symbol', '=', 'ORSTED.CO')
      .orderBy('known_at')
      .execute();
    expect(versions).toEqual([
      { amount: 10.5, known_at: '2026-11-27T12:00:00.000Z', superseded_at: '2026-11-27T13:00:00.000Z' },
      { amount: 10.6, known_at: '2026-11-27T13:00:00.000Z', superseded_at: null },
    ]);
    // Read as known on a past day: the version current then, and nothing known after it.
    const before = await get('/v1/actions?tickers=ORSTED.CO&asOf=2026-11-26');
    expect(before.body.readAsOf).toBe('2026-11-26T23:59:59.999Z');
    expect(before.body.items[0].error.message).toBe(
      'No dividends, splits or capital gains of ORSTED.CO were known by 2026-11-26.',
    );
    const known = await get('/v1/actions?tickers=ORSTED.CO&asOf=2026-11-27');
    expect(known.body.items[0].actions.map((a: { amount: number }) => a.amount)).toEqual([10.6]);
    const future = await get('/v1/actions?tickers=ORSTED.CO&asOf=2027-01-01');
    expect(future.status).toBe(400);
  });

  it('says over which days each type is known, from what each recording asked for', async () => {
    const { body } = await get('/v1/actions?tickers=AAPL,MSFT,NVDA');
    const [aapl, msft, nvda] = body.items;
    const year = { start: '2020-01-02', end: '2020-12-31' };
    expect(aapl.known).toEqual({ dividend: [year], split: [year], capitalGain: [] });
    // MSFT's chart asked for dividends only (events=div), NVDA's for splits only.
    const window = { start: '2021-02-01', end: '2022-01-28' };
    expect(msft.known).toEqual({ dividend: [window], split: [], capitalGain: [] });
    expect(nvda.known).toEqual({ dividend: [], split: [window], capitalGain: [] });
  });

  it('a listing whose actions are not known says so, rather than that it paid none', async () => {
    const { body } = await get('/v1/actions?tickers=BARC.L');
    expect(body.items[0]).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(body.items[0].error.message).toMatch(/loaded without them.*quarry ingest yahoo/);
    // Amounts as paid need the splits: MSFT's recording does not know them.
    const paid = await get('/v1/actions?tickers=MSFT&adjust=none');
    expect(paid.body.items[0].error.message).toBe(
      'Splits of MSFT are known only on no day: amounts as paid need them from 2021-02-17 on.',
    );
    // Total return of Barclays would be its split-adjusted closes: refused, not answered wrong.
    const total = await get(
      '/v1/history?tickers=BARC.L&fields=PX_LAST&start=2023-08-01&end=2023-08-25&adjust=total',
    );
    expect(total.body.items[0]).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(total.body.items[0].error.message).toMatch(/^Dividends of BARC.L are known only on no day/);
    // NVDA's dividends are not in its recording either: its index is an error of its field, its prices served.
    const index = await get(
      '/v1/history?tickers=NVDA&fields=PX_LAST,TOT_RETURN_INDEX_GROSS_DVDS&start=2021-07-16&end=2021-07-20',
    );
    const item = index.body.items[0];
    expect(item.status).toBe('partial');
    expect(item.errors.TOT_RETURN_INDEX_GROSS_DVDS.code).toBe('not_found');
    expect(item.rows.map((r: Record<string, unknown>) => Object.keys(r))).toEqual([
      ['date', 'PX_LAST'],
      ['date', 'PX_LAST'],
      ['date', 'PX_LAST'],
    ]);
  });

  it('the dictionary lists the bulk fields; /v1/data points to /v1/actions for them', async () => {
    const { body: fields } = await get('/v1/fields');
    const bulk = fields.fields.filter((f: { group: string }) => f.group === 'bulk');
    expect(bulk.map((f: { aliases: { name: string }[] }) => f.aliases[0]?.name)).toEqual([
      'DVD_HIST_ALL',
      'EQY_SPLIT_HIST',
    ]);
    const { body } = await get('/v1/data?tickers=AAPL&fields=DVD_HIST_ALL,PX_LAST');
    expect(body.items[0].errors.DVD_HIST_ALL).toEqual({
      code: 'not_applicable',
      message: 'DVD_HIST_ALL is a list of rows: ask /v1/actions (market.actions, bds in the Python client)',
    });
    expect(body.items[0].values.PX_LAST).toEqual(expect.any(Number));
  });
});
