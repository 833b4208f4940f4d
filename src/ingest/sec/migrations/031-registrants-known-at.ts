import type { Kysely } from 'kysely';
import { addKnownAt } from '../../../store/migrations/columns.js';

/** When each revision became known and when a later one superseded it: the registrants as they stood on a date. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownAt(db, { registrants: ['ticker'] });
}
