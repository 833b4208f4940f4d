// A history request is read once a call: pricing the call and answering it take the same reading of it; its
// default window ends on the day it is read.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HISTORY } from '../../../src/market/history/index.js';
import { historyUnits, readHistory } from '../../../src/market/history/request.js';
import { MARKET_TOOLS } from '../../../src/mcp/market-tools.js';
import { bearer, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';

describe('reading a history request', () => {
  it('each ticker and field once, the window ending on the day read', () => {
    const request = { tickers: ['BARC LN Equity', 'AAPL', 'AAPL'], fields: ['PX_LAST'] };
    const first = readHistory(request, '2026-11-27');
    // 2 unique tickers, a year's window, one span each.
    expect(historyUnits(first)).toBe(2);
    expect(first).toMatchObject({
      tickers: ['BARC LN Equity', 'AAPL'],
      start: '2025-11-27',
      end: '2026-11-27',
    });
    expect(readHistory(request, '2026-11-28')).toMatchObject({ start: '2025-11-28', end: '2026-11-28' });
  });

  describe('once a call, by every door', () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv();
    });
    afterAll(() => env.close());

    it('GET and POST /v1/history read the request once: the units and the answer share it', async () => {
      const key = await marketKey(env.deps);
      const read = vi.spyOn(HISTORY, 'read');
      try {
        const get = await env.app.inject({
          method: 'GET',
          url: '/v1/history?tickers=AAPL,MSFT&fields=PX_LAST',
          headers: bearer(key),
        });
        expect(get.statusCode).toBe(200);
        expect(get.headers['x-service-units']).toBe('2');
        expect(read).toHaveBeenCalledTimes(1);
        const post = await env.app.inject({
          method: 'POST',
          url: '/v1/history',
          headers: bearer(key),
          payload: { tickers: ['AAPL'], fields: ['PX_LAST'] },
        });
        expect(post.statusCode).toBe(200);
        expect(read).toHaveBeenCalledTimes(2);
      } finally {
        read.mockRestore();
      }
    });

    it('market.history reads its arguments once: the check before the charge and the answer share it', async () => {
      const tool = MARKET_TOOLS.find((t) => t.name === 'market.history');
      const read = vi.spyOn(HISTORY, 'read');
      try {
        const args = { tickers: ['AAPL'], fields: ['PX_LAST'] };
        tool?.check?.(env.deps, args);
        await tool?.run(env.deps, args);
        expect(read).toHaveBeenCalledTimes(1);
      } finally {
        read.mockRestore();
      }
    });
  });
});
