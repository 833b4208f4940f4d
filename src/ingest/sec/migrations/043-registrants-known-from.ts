import type { Kysely } from 'kysely';
import { addKnownFrom } from '../../../store/migrations/columns.js';

/** Where each registrant revision's known time came from. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addKnownFrom(db, ['registrants']);
}
