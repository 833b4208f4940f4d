// The market's tables (quotes, bars, statements, facts, the live cache, listings, corporate actions, the second
// opinions that disagreed), in the order they run.
import type { Migrations } from '../../store/migrate.js';
import * as m011 from './011-market.js';
import * as m012 from './012-statements.js';
import * as m013 from './013-market-facts.js';
import * as m022 from './022-market-cache.js';
import * as m025 from './025-statement-concepts.js';
import * as m032 from './032-statement-first-report.js';
import * as m034 from './034-statement-reports.js';
import * as actions from './actions.js';
import * as barBlocks from './bar-blocks.js';
import * as barCompression from './bar-compression.js';
import * as disputes from './disputes.js';
import * as exchangeSnapshots from './exchange-snapshots.js';
import * as listings from './listings.js';

export const MARKET_MIGRATIONS: Migrations = {
  '011-market': m011,
  '012-statements': m012,
  '013-market-facts': m013,
  '022-market-cache': m022,
  '025-statement-concepts': m025,
  '032-statement-first-report': m032,
  '034-statement-reports': m034,
  'market/listings': listings,
  'market/bar-blocks': barBlocks,
  'market/actions': actions,
  'market/bar-compression': barCompression,
  'market/exchange-snapshots': exchangeSnapshots,
  'market/disputes': disputes,
};
