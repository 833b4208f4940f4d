import type { Kysely } from 'kysely';
import { type Engine, serialId } from '../../../store/engine.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('cot_records')
    .addColumn('id', serialId(engine), (c) => c.primaryKey())
    .addColumn('report_family', 'text', (c) => c.notNull())
    .addColumn('contract_code', 'text', (c) => c.notNull())
    .addColumn('report_date', 'text', (c) => c.notNull())
    .addColumn('market_name', 'text', (c) => c.notNull())
    .addColumn('exchange_code', 'text', (c) => c.notNull())
    .addColumn('commodity_code', 'text', (c) => c.notNull())
    .addColumn('open_interest', 'bigint', (c) => c.notNull())
    .addColumn('positions', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('cot_records_revision', [
      'report_family',
      'contract_code',
      'report_date',
      'revision',
    ])
    .execute();
  await db.schema
    .createIndex('cot_records_board')
    .on('cot_records')
    .columns(['report_family', 'is_current', 'report_date'])
    .execute();
  await db.schema
    .createIndex('cot_records_contract')
    .on('cot_records')
    .columns(['contract_code', 'report_family', 'is_current', 'report_date'])
    .execute();
}
