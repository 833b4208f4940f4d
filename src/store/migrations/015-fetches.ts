import type { Kysely } from 'kysely';

/**
 * What was last fetched from each agency URL: its validators, so the next fetch is conditional (304 when the
 * agency's copy has not changed), and the checksum of the bytes received.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fetches')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .execute();
}
