// The market's tables (quotes, bars, statements, facts, the live cache, listings, corporate actions), in the order they run.
import type { Migrations } from '../store/migrate.js';
import * as m011 from './migrations/011-market.js';
import * as m012 from './migrations/012-statements.js';
import * as m013 from './migrations/013-market-facts.js';
import * as m022 from './migrations/022-market-cache.js';
import * as m025 from './migrations/025-statement-concepts.js';
import * as m032 from './migrations/032-statement-first-report.js';
import * as m034 from './migrations/034-statement-reports.js';
import * as actions from './migrations/actions.js';
import * as barBlocks from './migrations/bar-blocks.js';
import * as barCompression from './migrations/bar-compression.js';
import * as exchangeSnapshots from './migrations/exchange-snapshots.js';
import * as listings from './migrations/listings.js';

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
};
