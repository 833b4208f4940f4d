import type { Kysely } from 'kysely';
import { addKnownAt } from '../../../store/migrations/columns.js';

/**
 * When each award revision became known (the source's own date for it where it states one) and when a later
 * one superseded it: the listing and an award's detail as they stood on a date.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownAt(db, { awards: ['id'] });
}
