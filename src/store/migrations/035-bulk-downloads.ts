import type { Kysely } from 'kysely';

/**
 * The bulk files an account has paid for: a download of the same file (dataset, version, asOf, format) within a
 * day of the charge is not charged again, so a broken download is resumed for nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_downloads')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('charged_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_downloads_pk', ['account_id', 'file'])
    .execute();
}
