import type { Kysely } from 'kysely';
import { addKnownAt } from '../../../store/migrations/columns.js';

/** When each revision became known and when a later one superseded it: the 8-K events as they stood on a date. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownAt(db, { events: ['id'] });
}
