// Price rows written as JSON text: a window of a series, its block written once per series and columns and
// sliced for each later window; the budget bounds what is held.
import { describe, expect, it } from 'vitest';
import type { Bar } from '../../../src/kernel/market-provider.js';
import { BarRows, BlockCache, historyJson } from '../../../src/market/bars/rows.js';

const series: readonly Bar[] = [
  { date: '2023-08-23', open: 1.4, high: 1.45, low: 1.39, close: 1.42, volume: 1000 },
  { date: '2023-08-24', open: 1.42, high: 1.44, low: 1.41, close: 1.43, volume: null },
  { date: '2023-08-25', open: null, high: 1.44979996, low: 1.42, close: 1.43979996, volume: 2500 },
  { date: '2023-08-29', open: 1.44, high: 1.46, low: 1.43, close: 1.45, volume: 1800 },
];
const columns = [
  { input: 'PX_LAST', column: 'close' as const, scaled: true },
  { input: 'open', column: 'open' as const, scaled: true },
  { input: 'Volume', column: 'volume' as const, scaled: false },
];

describe('price rows as JSON text', () => {
  it('a window of a shared series, then another window of the same block', () => {
    const cache = new BlockCache();
    expect(cache.rowsJson(new BarRows(series, 1, 3, columns, 1, true))).toBe(
      '[{"date":"2023-08-24","PX_LAST":1.43,"open":1.42,"Volume":null},' +
        '{"date":"2023-08-25","PX_LAST":1.43979996,"open":null,"Volume":2500}]',
    );
    expect(cache.count).toBe(1);
    expect(cache.rowsJson(new BarRows(series, 0, 1, columns, 1, true))).toBe(
      '[{"date":"2023-08-23","PX_LAST":1.42,"open":1.4,"Volume":1000}]',
    );
    expect(cache.rowsJson(new BarRows(series, 3, 4, columns, 1, true))).toBe(
      '[{"date":"2023-08-29","PX_LAST":1.45,"open":1.44,"Volume":1800}]',
    );
    expect(cache.count).toBe(1);
    expect(cache.rowsJson(new BarRows(series, 2, 2, columns, 1, true))).toBe('[]');
  });

  it('pence: prices times the factor to six decimals, volume as it is, in a block of their own', () => {
    const cache = new BlockCache();
    cache.rowsJson(new BarRows(series, 0, 4, columns, 1, true));
    expect(cache.rowsJson(new BarRows(series, 2, 3, columns, 100, true))).toBe(
      '[{"date":"2023-08-25","PX_LAST":143.979996,"open":null,"Volume":2500}]',
    );
    expect(cache.count).toBe(2);
  });

  it('the same text as the row objects, shared or not, for every window', () => {
    const cache = new BlockCache();
    for (let first = 0; first <= series.length; first += 1) {
      for (let end = first; end <= series.length; end += 1) {
        const shared = new BarRows(series, first, end, columns, 100, true);
        const fresh = new BarRows(series.slice(first, end), 0, end - first, columns, 100, false);
        expect(JSON.parse(cache.rowsJson(shared))).toEqual(JSON.parse(JSON.stringify(fresh)));
        expect(cache.rowsJson(fresh)).toBe(cache.rowsJson(shared));
      }
    }
    expect(cache.count).toBe(1);
  });

  it('a field name with characters JSON escapes stays valid JSON', () => {
    const odd = [{ input: 'a"b\\c', column: 'close' as const, scaled: false }];
    const text = new BlockCache().rowsJson(new BarRows(series, 0, 1, odd, 1, true));
    expect(JSON.parse(text)).toEqual([{ date: '2023-08-23', 'a"b\\c': 1.42 }]);
  });

  it('a field name past ASCII: every window is cut at its rows, not inside a character', () => {
    const accented = [{ input: 'clôture€', column: 'close' as const, scaled: false }];
    const cache = new BlockCache();
    for (let first = 0; first < series.length; first += 1) {
      const text = cache.rowsJson(new BarRows(series, first, series.length, accented, 1, true));
      expect(JSON.parse(text)).toEqual(
        series.slice(first).map((b) => ({ date: b.date, 'clôture€': b.close })),
      );
    }
  });

  it('least recently used blocks go once the budget is passed', () => {
    // Three series of 4, 3 and 2 bars. A block holds the rows' text, comma-separated, without brackets, and a
    // 4-byte offset per row plus one. The rows above are 61, 62, 68 and 62 characters long, so the blocks hold
    // 61 + 62 + 68 + 62 + 3 commas + 5 x 4 = 276 bytes, 61 + 62 + 68 + 2 + 4 x 4 = 209 and 61 + 62 + 1 + 3 x 4 = 136.
    const [a, b, c] = [4, 3, 2].map((n) => series.slice(0, n).map((bar) => ({ ...bar })));
    const all = (bars: Bar[]) => new BarRows(bars, 0, bars.length, columns, 1, true);
    const [sa, sb, sc] = [276, 209, 136];
    const cache = new BlockCache(sa + sb + 1);
    cache.rowsJson(all(a as Bar[]));
    cache.rowsJson(all(b as Bar[]));
    expect(cache.held).toBe(sa + sb);
    cache.rowsJson(new BarRows(a as Bar[], 0, 1, columns, 1, true)); // a is now the most recently used
    cache.rowsJson(all(c as Bar[]));
    expect(cache.count).toBe(2);
    expect(cache.held).toBe(sa + sc);
  });

  it('a history answer: envelope, price rows as text and other items as they are', () => {
    const body = {
      access: 'market-data',
      items: [
        { input: 'BARC.L', status: 'ok', rows: new BarRows(series, 3, 4, columns, 1, true) },
        { input: 'NOPE', status: 'error', error: { code: 'not_found', message: 'No history for NOPE.' } },
        { input: 'X', status: 'ok', rows: [{ date: '2024-12-31', totalRevenue: 5 }] },
      ],
    };
    expect(JSON.parse(historyJson(body))).toEqual({
      access: 'market-data',
      items: [
        {
          input: 'BARC.L',
          status: 'ok',
          rows: [{ date: '2023-08-29', PX_LAST: 1.45, open: 1.44, Volume: 1800 }],
        },
        { input: 'NOPE', status: 'error', error: { code: 'not_found', message: 'No history for NOPE.' } },
        { input: 'X', status: 'ok', rows: [{ date: '2024-12-31', totalRevenue: 5 }] },
      ],
    });
  });
});

describe('writing the blocks of an answer', () => {
  it('writes each missing series in a turn of its own, and the answer is the same text', async () => {
    const cache = new BlockCache();
    const serieses = [0, 1, 2, 3].map((k) => series.map((bar) => ({ ...bar, close: (bar.close ?? 0) + k })));
    const items = serieses.map((bars, k) => ({
      ticker: `T${k}`,
      rows: new BarRows(bars, 0, bars.length, columns, 1, true),
    }));
    // One of them held already: it is not written again.
    cache.rowsJson(items[2]!.rows);
    const seen: number[] = [];
    let running = true;
    const tick = () => {
      seen.push(cache.count);
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    await cache.writeInTurns([{ ticker: 'none', rows: [] }, ...items]);
    running = false;
    expect(cache.count).toBe(4);
    // The loop turned between the writes: it saw every count on the way, one block more at a time.
    expect([...new Set([...seen, cache.count])]).toEqual([1, 2, 3, 4]);
    const fresh = { items: items.map((item) => ({ ...item, rows: JSON.parse(JSON.stringify(item.rows)) })) };
    expect(JSON.parse(historyJson({ items }))).toEqual(fresh);
  });
});
