// The market sources' own files, by the name `quarry ingest` takes.

import { type Loader, loader } from '../ingest/run.js';
import { tickersByCik } from '../ingest/sec/registrants.js';
import { marketImporter } from './load/import.js';
import { priceRecords } from './load/prices.js';
import { secFactsRecords } from './load/sec-facts.js';
import { yahooRecords } from './load/yahoo.js';

export const MARKET_LOADERS: Record<string, Loader<never>> = {
  prices: loader(marketImporter, priceRecords),
  yahoo: loader(marketImporter, yahooRecords),
  'sec-facts': loader(marketImporter, secFactsRecords, { prepare: tickersByCik }),
};
