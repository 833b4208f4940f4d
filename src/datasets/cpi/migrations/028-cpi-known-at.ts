import type { Kysely } from 'kysely';
import { addKnownAt } from '../../../store/migrations/columns.js';

/** When each revision became known and when a later one superseded it: the CPI as it stood on a date (a later vintage revises seasonally adjusted values). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownAt(db, {
    cpi_items: ['item_code'],
    cpi_index: ['item_code', 'seasonal', 'period'],
    cpi_weights: ['item_code', 'weights_period'],
    cpi_series: ['series_id'],
    cpi_releases: ['period'],
  });
}
