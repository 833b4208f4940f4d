// Where the BLS publishes the CPI flat files the bls loader reads. cu.item comes first: the other files are
// matched to its items.

import type { Kysely } from 'kysely';
import type { Collection } from '../../../ingest/collect.js';
import type { Database } from '../../../store/schema.js';
import { freshnessSource } from '../../freshness.js';
import { knownAt } from '../../known.js';
import { BLS_CPI, BLS_MONTHS } from '../calendar.js';

const FLAT_FILES = '/pub/time.series/cu';

export const blsCollection: Collection = {
  agency: { id: 'bls', variable: 'QUARRY_BLS_URL', url: 'https://download.bls.gov' },
  schedules: [{ job: 'bls-cpi', calendar: BLS_CPI }],
  files: () => ['cu.item', 'cu.series', 'cu.data.1.AllItems'].map((name) => `${FLAT_FILES}/${name}`),
};

/** What cpi's freshness is judged from: its records, its collection, and the BLS's monthly calendar. */
export const cpiFreshness = freshnessSource('cpi', 'cpi_index', blsCollection, [
  {
    name: 'cpi',
    periods: BLS_MONTHS,
    // The newest month of any index held (or known at an instant), dated its first day as the files' dates are.
    lastPeriod: async (db: Kysely<Database>, at: string | null) => {
      const found = await db
        .selectFrom('cpi_index')
        .select((eb) => eb.fn.max('period').as('last'))
        .where(knownAt(at))
        .executeTakeFirst();
      return found?.last ? `${found.last}-01` : null;
    },
  },
]);
