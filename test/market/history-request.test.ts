// A history request is read once: pricing the call and answering it take the same reading of it, on the same
// day; another day reads it again (its default window ends today).
import { describe, expect, it } from 'vitest';
import { historyUnits, normalise } from '../../src/market/history/request.js';

describe('reading a history request', () => {
  it('once per request and day, the price and the answer sharing it', () => {
    const request = { tickers: ['BARC LN Equity', 'AAPL', 'AAPL'], fields: ['PX_LAST'] };
    const first = normalise(request, '2026-11-27');
    // Priced on the same day: 2 unique tickers, a year's window, one span each.
    expect(historyUnits(request, '2026-11-27')).toBe(2);
    expect(normalise(request, '2026-11-27')).toBe(first);
    expect(first).toMatchObject({
      tickers: ['BARC LN Equity', 'AAPL'],
      start: '2025-11-27',
      end: '2026-11-27',
    });
    const next = normalise(request, '2026-11-28');
    expect(next).not.toBe(first);
    expect(next).toMatchObject({ start: '2025-11-28', end: '2026-11-28' });
    // An equal request of its own is read on its own.
    expect(normalise({ ...request }, '2026-11-27')).not.toBe(first);
  });
});
