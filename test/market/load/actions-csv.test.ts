// Dividends and splits from the columns yfinance writes beside the prices (Cal-Maine, CALM, ten variable cash
// dividends 2022–2024; Kenmare, KMR.L, five, in pounds as yfinance converts London prices): the actions, their
// units under each ticker form, and total return against the file's own Adj Close. Read from the files here.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';

const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
const DIR = path.resolve('test/fixtures/market/actions');

/** The file's rows: date, Close, Adj Close, Dividends, Stock Splits. */
function rows(file: string) {
  const [head, ...lines] = readFileSync(path.join(DIR, file), 'utf8').trim().split('\n');
  const names = (head as string).split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    const cell = (name: string) => Number(cells[names.indexOf(name)]);
    return {
      date: (cells[0] as string).slice(0, 10),
      close: cell('Close'),
      adjClose: cell('Adj Close'),
      dividend: cell('Dividends'),
      split: cell('Stock Splits'),
    };
  });
}

describe('dividends and splits in a price file', () => {
  let env: TestEnv;
  let key: string;
  const calm = rows('CALM-1d-no-bad-divs.csv');
  const kenmare = rows('KMR-L-1d-no-bad-divs.csv');
  beforeAll(async () => {
    env = await testEnv({ clock: () => new Date('2026-11-27T12:00:00Z') });
    await loadFile(env.deps, prices, path.join(DIR, 'CALM-1d-no-bad-divs.csv'), { ticker: 'CALM' });
    await loadFile(env.deps, prices, path.join(DIR, 'KMR-L-1d-no-bad-divs.csv'), {
      ticker: 'KMR.L',
      unit: 'main',
    });
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const get = async (url: string) =>
    (await env.app.inject({ method: 'GET', url, headers: bearer(key) })).json();

  it("answers the file's dividends, known over the days it holds", async () => {
    const body = await get('/v1/actions?tickers=CALM');
    const paid = calm.filter((r) => r.dividend > 0);
    expect(paid).toHaveLength(10);
    expect(body.items[0].actions.map((a: { date: string; amount: number }) => [a.date, a.amount])).toEqual(
      paid.map((r) => [r.date, r.dividend]),
    );
    expect(body.items[0].known).toEqual({
      dividend: [{ start: calm[0]?.date, end: calm.at(-1)?.date }],
      split: [{ start: calm[0]?.date, end: calm.at(-1)?.date }],
      capitalGain: [],
    });
  });

  it('a London listing: pence under the terminal form, pounds under the others, as its prices', async () => {
    const body = await get('/v1/actions?tickers=KMR%20LN%20Equity,KMR.L');
    const paid = kenmare.filter((r) => r.dividend > 0);
    const [pence, pounds] = body.items;
    expect(pence.currency).toBe('GBp');
    expect(pounds.currency).toBe('GBP');
    expect(pounds.actions.map((a: { amount: number }) => a.amount)).toEqual(
      paid.map((r) => Number(r.dividend.toPrecision(10))),
    );
    for (const [i, action] of pence.actions.entries())
      expect(action.amount).toBeCloseTo((paid[i]?.dividend as number) * 100, 6);
    const history = await get(
      `/v1/history?tickers=KMR%20LN%20Equity&fields=PX_LAST&start=${kenmare[0]?.date}&end=${kenmare[0]?.date}`,
    );
    expect(history.items[0].rows[0].PX_LAST).toBeCloseTo((kenmare[0]?.close as number) * 100, 4);
  });

  it("total return between any two days equals the ratio of the file's Adj Close (1e-6)", async () => {
    for (const [ticker, source] of [
      ['CALM', calm],
      ['KMR.L', kenmare],
    ] as const) {
      const start = source[0]?.date;
      const end = source.at(-1)?.date;
      const body = await get(
        `/v1/history?tickers=${ticker}&fields=PX_LAST&start=${start}&end=${end}&adjust=total`,
      );
      const served: { date: string; PX_LAST: number }[] = body.items[0].rows;
      const adj = new Map(source.map((r) => [r.date, r.adjClose]));
      expect(served.length).toBe(new Set(source.map((r) => r.date)).size);
      let worst = 0;
      for (const anchor of [served[0], served[served.length >> 1], served.at(-1)])
        for (const row of served) {
          const ours = row.PX_LAST / (anchor?.PX_LAST as number);
          const theirs = (adj.get(row.date) as number) / (adj.get(anchor?.date as string) as number);
          worst = Math.max(worst, Math.abs(ours / theirs - 1));
        }
      expect(worst).toBeLessThan(1e-6);
    }
  });

  it('refuses an unknown --unit', async () => {
    await expect(
      loadFile(env.deps, prices, path.join(DIR, 'CALM-1d-no-bad-divs.csv'), {
        ticker: 'CALM',
        unit: 'pence',
      }),
    ).rejects.toThrow(/--unit pence: give main or quoted/);
  });

  it('a payment Yahoo sent in the other unit is scaled back on a pence listing, and marked', async () => {
    // Kenmare's file as Yahoo sometimes sends a London listing: prices in pence, one dividend in pounds (a
    // hundredth of its size) and one a hundred times too large.
    const text = readFileSync(path.join(DIR, 'KMR-L-1d-no-bad-divs.csv'), 'utf8').trim().split('\n');
    const names = (text[0] as string).split(',');
    const col = (name: string) => names.indexOf(name);
    const paidRows: number[] = [];
    const lines = text.map((line, i) => {
      if (i === 0) return line;
      const cells = line.split(',');
      for (const name of ['Open', 'High', 'Low', 'Close', 'Adj Close'])
        cells[col(name)] = String(Number(cells[col(name)]) * 100);
      const dividend = Number(cells[col('Dividends')]);
      if (dividend > 0) {
        paidRows.push(i);
        // In pence as the prices are; the first sent in pounds, the second a hundred times over.
        const pence = dividend * 100;
        cells[col('Dividends')] = String(
          paidRows.length === 1 ? dividend : paidRows.length === 2 ? pence * 100 : pence,
        );
      }
      return cells.join(',');
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kmr-')), 'KMR.L-pence.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    await loadFile(env.deps, prices, file, { ticker: 'KMR.L' });
    const body = await get('/v1/actions?tickers=KMR.L');
    const paid = kenmare.filter((r) => r.dividend > 0);
    const actions = body.items[0].actions;
    // Every amount as the file of pounds states it, the two slips marked with what was sent.
    for (const [i, action] of actions.entries())
      expect(action.amount).toBeCloseTo(paid[i]?.dividend as number, 8);
    expect(actions[0].repaired.from).toBeCloseTo((paid[0]?.dividend as number) / 100, 10);
    expect(actions[1].repaired.from).toBeCloseTo((paid[1]?.dividend as number) * 100, 8);
    expect(actions.slice(2).every((a: { repaired?: unknown }) => a.repaired === undefined)).toBe(true);
    expect(actions[0].repaired.reason).toMatch(/a hundred times too small/);
    expect(actions[1].repaired.reason).toMatch(/a hundred times too large/);
  });
});
