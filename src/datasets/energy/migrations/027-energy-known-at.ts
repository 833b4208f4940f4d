import type { Kysely } from 'kysely';
import { addKnownAt } from '../../../store/migrations/columns.js';

/** When each revision became known and when a later one superseded it: the EIA's figures as they stood on a date. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownAt(db, {
    energy_series: ['series_id'],
    energy_observations: ['series_id', 'week_ending'],
    energy_reports: ['report', 'week_ending'],
  });
}
