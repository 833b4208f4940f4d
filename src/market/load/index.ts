// The market sources' own files, by the name `quarry ingest` takes.

import { type DemoFile, type Loader, loader } from '../../ingest/run.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { marketImporter, wholeFileImporter } from './import.js';
import { heldLevel } from './price-checks.js';
import { priceRecords } from './prices.js';
import { heldSnapshots, secExchangeRecords } from './sec-exchanges.js';
import { secFactsRecords } from './sec-facts.js';
import { yahooRecords } from './yahoo.js';

export const MARKET_LOADERS: Record<string, Loader<never>> = {
  prices: loader(marketImporter, priceRecords, {
    prepare: heldLevel,
    options: {
      ticker: 'TICKER: the instrument of a file whose rows do not name it',
      'date-format': 'FORMAT: how the dates are written when they are not YYYY-MM-DD (e.g. DD/MM/YYYY)',
      through: 'YYYY-MM-DD: the last bar to load (a later one may still have been trading)',
      name: "NAME: the listing's name, where the file carries none (search finds the listing by it)",
      unit: "main or quoted: the unit of the file's prices on a listing quoted in minor units (pounds or pence for London; quoted by default). A file whose level or dividends disagree with the unit it is read in is refused, naming the one to pass",
    },
  }),
  yahoo: loader(marketImporter, yahooRecords),
  'sec-facts': loader(marketImporter, secFactsRecords, {
    prepare: tickersByCik,
    options: { ticker: "TICKER: the registrant's ticker, where the store does not map its CIK to one" },
  }),
  // A snapshot of every listing at a date: loaded whole, in one transaction, or not at all.
  'sec-exchanges': loader(wholeFileImporter, secExchangeRecords, { prepare: heldSnapshots }),
};

/**
 * The market's bundled files (`quarry serve --demo`), after the datasets' (the company facts find their ticker
 * among the registrants). Daily bars, split-adjusted as the history is (each file's own Close column, never its
 * dividend-adjusted one), with the options each needs: most name their instrument themselves; the London
 * files carry no company name, so the demo states it. ^GSPC is two
 * files, the second's last bar (2026-06-29) a day still trading when it was saved; ^DJI's daily history runs
 * from 1992 (the demo's long series). Then statement fields from
 * the company facts, Yahoo's quotes, Ørsted's chart of 2020 with its dividend (the demo's corporate action, known
 * for every day of its bars), and short interest as Yahoo's key statistics gave it on 2025-02-24.
 */
export const MARKET_DEMO: readonly DemoFile[] = [
  ...['AAPL', 'MSFT', 'NVDA', 'TSLA', 'CL=F', 'EURUSD=X'].map(
    (t) => ['prices', `market/ahmedhussain47-Praktikum-Equity-Analysis-Embedding/${t}.csv`] as const,
  ),
  ['prices', 'market/Imman-dot-quant-pairs-trading/BARC.L.csv', { name: 'Barclays PLC' }],
  ['prices', 'market/Imman-dot-quant-pairs-trading/VOD.L.csv', { name: 'Vodafone Group Plc' }],
  ['prices', 'market/elvisbinks-risk-on-risk-off-crypto/BTC-USD.csv'],
  ['prices', 'market/jaiveer28-ets-simulator/^GSPC.csv', { ticker: '^GSPC' }],
  ['prices', 'market/fsoaz-financial-market-dashboard/^GSPC.csv', { through: '2026-06-26' }],
  ['prices', 'market/alitalbi-storage_data_fy/^DJI.csv', { ticker: '^DJI' }],
  ['sec-facts', 'sec/companyfacts/CIK0000320193.json'],
  ['sec-facts', 'sec/companyfacts/CIK0001045810.json'],
  ['yahoo', 'market/quote-AAPL.json'],
  ['yahoo', 'market/quote-OCDO.L.json'],
  ['yahoo', 'market/chart-ORSTED.CO-2020.json'],
  ...['AAPL', 'AMZN-2025-02-24', 'CRM-2025-02-24', 'GOOG-2025-02-24'].map(
    (name) => ['yahoo', `market/quoteSummary-defaultKeyStatistics-${name}.json`] as const,
  ),
];
