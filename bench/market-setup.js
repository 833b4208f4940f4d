// What the market benchmarks share: 20 years of synthetic daily bars for 50 symbols in a fresh embedded store,
// and many real market keys (each has 120 units a minute), so that the path is measured, not the limit.
// The bars are synthetic (a random walk per symbol, weekdays, six decimals like the published price files).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAccount } from '../dist/accounts/accounts.js';
import { createKey } from '../dist/accounts/keys.js';
import { importRecords } from '../dist/ingest/import.js';
import { marketImporter } from '../dist/market/load/import.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';

export const SYMBOLS = Array.from({ length: 50 }, (_, i) => `SYN${i}`);
export const FIELDS = [
  'PX_LAST',
  'PX_OPEN',
  'PX_HIGH',
  'PX_LOW',
  'PX_VOLUME',
  'CHG_PCT_1D',
  'PX_CLOSE_1D',
  'HIGH_52WEEK',
  'LOW_52WEEK',
  'NAME',
  'CRNCY',
  'VOLATILITY_10D',
  'VOLATILITY_30D',
  'VOLATILITY_90D',
  'VOLATILITY_260D',
  'price',
  'open',
  'high',
  'low',
  'volume',
  'previousClose',
  'change',
  'changePercent',
  'high52w',
  'low52w',
];

/** Prices as published: a price file carries at most six decimals (129.410004), not a double's seventeen digits. */
const published = (value) => Math.round(value * 1e6) / 1e6;

async function* bars() {
  let line = 0;
  for (const symbol of SYMBOLS) {
    let price = 100;
    const day = new Date(Date.UTC(2006, 0, 2));
    const end = Date.UTC(2026, 0, 1);
    for (; day.getTime() < end; day.setUTCDate(day.getUTCDate() + 1)) {
      if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
      const move = price * (Math.random() - 0.5) * 0.04;
      const open = price;
      price = Math.max(1, price + move);
      line += 1;
      yield {
        line,
        value: {
          type: 'bar',
          symbol,
          date: day.toISOString().slice(0, 10),
          open: published(open),
          high: published(Math.max(open, price) * 1.005),
          low: published(Math.min(open, price) * 0.995),
          close: published(price),
          volume: 1_000_000,
        },
      };
    }
  }
}

/** A store with the bars and the keys (embedded, or the one `store`'s DATABASE_URL names); `env` starts a
 * server on it. */
export async function prepareMarket(name, store = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `quarry-bench-${name}-`));
  // Stored data only: a benchmark never reaches a real upstream (the live one runs against a local stand-in).
  const env = {
    QUARRY_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: '0',
    QUARRY_MARKET_UPSTREAM: 'none',
    ...store,
  };
  const deps = await createDeps(loadConfig(env));
  const report = await importRecords(deps.store.db, marketImporter, bars(), 'synthetic', deps.clock());
  // Each key has 120 units a minute: the benchmark spreads its calls over many real keys (20 per account).
  const keys = [];
  for (let a = 0; a < 150; a += 1) {
    const account = await createAccount(deps, {
      email: `bench-market-${a}@example.com`,
      marketPlan: 'paid',
      emailConfirmed: true,
    });
    for (let k = 0; k < 20; k += 1)
      keys.push((await createKey(deps, { accountId: account.id, api: 'market' })).key);
  }
  await deps.close();
  console.log(`${report.lines} synthetic daily bars for ${SYMBOLS.length} symbols`);

  return { dataDir, env, keys };
}
