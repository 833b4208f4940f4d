import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { type Engine, serialId } from '../engine.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('plan_ends_at', 'text')
    .addColumn('market_plan', 'text', (c) => c.notNull())
    .addColumn('contract_credits_per_month', 'bigint')
    .addColumn('contract_credits_per_minute', 'bigint')
    .addColumn('contract_max_keys', 'integer')
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('allowance', 'bigint', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('period_charged', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('period_refunded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('period_adjusted', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('accounts_balance_nonnegative', sql`balance >= 0`)
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('api', 'text', (c) => c.notNull())
    .addColumn('access', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('ledger')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('key_id', 'text')
    .addColumn('operation', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_account_period')
    .on('ledger')
    .columns(['account_id', 'period_start'])
    .execute();

  await db.schema
    .createTable('usage')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('dataset', 'text', (c) => c.notNull())
    .addColumn('call_type', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_pk', ['account_id', 'period_start', 'dataset', 'call_type'])
    .execute();
}
