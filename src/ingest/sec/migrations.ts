// The tables EDGAR's datasets started with, in the order they run: companies, the filings tables of events and
// exec-pay made together (007), the registrants (017, and when each was known, 031 and 043; whether still listed).
import type { Migrations } from '../../store/migrate.js';
import * as m007 from './migrations/007-filings.js';
import * as m017 from './migrations/017-registrants.js';
import * as m031 from './migrations/031-registrants-known-at.js';
import * as m043 from './migrations/043-registrants-known-from.js';
import * as registrantsListed from './migrations/registrants-listed.js';

export const SEC_MIGRATIONS: Migrations = {
  '007-filings': m007,
  '017-registrants': m017,
  '031-registrants-known-at': m031,
  '043-registrants-known-from': m043,
  'sec/registrants-listed': registrantsListed,
};
