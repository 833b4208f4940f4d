import type { Kysely } from 'kysely';

/** Market-data units by account, key, UTC day and door (market: the HTTP API; mcp): what `quarry usage` and the console show. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('unit_usage')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('door', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('unit_usage_pk', ['account_id', 'key_id', 'day', 'door'])
    .execute();
}
