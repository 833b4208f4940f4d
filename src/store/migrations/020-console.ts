import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../engine.js';

/**
 * The account console: a password, an operator flag and the payment processor's customer id on accounts, signed-in sessions, the account's
 * activity (key actions and operator changes: who, when, from where), the payment processor's events seen
 * (each applied once), and the reason an operator gives for a balance adjustment.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('password_hash', 'text').execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('accounts').addColumn('stripe_customer', 'text').execute();
  await db.schema.alterTable('ledger').addColumn('reason', 'text').execute();

  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('console_sessions_account')
    .on('console_sessions')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('account_activity')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_activity_account')
    .on('account_activity')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}
