import type { Kysely } from 'kysely';
import { addKnownFrom } from '../../../store/migrations/columns.js';

/** Where each revision's known time came from: a given publication, the calendar, a filing, the record, the load. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownFrom(db, ['energy_series', 'energy_observations', 'energy_reports']);
}
