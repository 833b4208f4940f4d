// Where the BLS publishes the CPI flat files the bls loader reads. cu.item comes first: the other files are
// matched to its items.
import { BLS_CPI, BLS_MONTHS } from '../../../ingest/calendar.js';
import type { Collection } from '../../../ingest/collect.js';
import { freshnessSource } from '../../freshness.js';

const FLAT_FILES = '/pub/time.series/cu';

export const blsCollection: Collection = {
  agency: { id: 'bls', variable: 'QUARRY_BLS_URL', url: 'https://download.bls.gov' },
  schedules: [{ job: 'bls-cpi', calendar: BLS_CPI }],
  files: () => ['cu.item', 'cu.series', 'cu.data.1.AllItems'].map((name) => `${FLAT_FILES}/${name}`),
};

/** What cpi's freshness is judged from: its records, its collection, and the calendar of its periods. */
export const cpiFreshness = freshnessSource('cpi', 'cpi_index', blsCollection, BLS_MONTHS);
