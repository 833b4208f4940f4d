// A random secret kept in the store, so every process on it signs and checks cursors alike.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function storeSecret(db: Kysely<Database>, name: string): Promise<string> {
  const held = await readSecret(db, name);
  if (held !== undefined) return held;
  await db
    .insertInto('settings')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const made = await readSecret(db, name);
  if (made === undefined) throw new Error(`the store's ${name} could not be kept`);
  return made;
}

/**
 * Read before it is written: a process starting beside a load (which holds the data file's write lock) writes
 * nothing to that file once the secret is made.
 */
async function readSecret(db: Kysely<Database>, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}
