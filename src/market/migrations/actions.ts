import { type Kysely, sql } from 'kysely';

/**
 * Corporate actions by listing and ex-date: cash dividends, capital gain distributions and splits. Each
 * version is kept with when it became known and when a later one replaced it, as bar blocks are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_actions')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'double precision')
    .addColumn('numerator', 'double precision')
    .addColumn('denominator', 'double precision')
    .addColumn('known_at', 'text', (c) => c.notNull())
    .addColumn('superseded_at', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX market_actions_current ON market_actions (symbol, date, type)
    WHERE superseded_at IS NULL`.execute(db);
  // The days over which a listing's actions of a type are known: a source that answered them for its window
  // (a chart asked for dividends and splits). Outside them no action is known, which is not to say none was.
  await db.schema
    .createTable('market_action_spans')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('known_at', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_action_spans_pk', ['symbol', 'type', 'start', 'end'])
    .execute();
}
