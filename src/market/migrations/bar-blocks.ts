import { type Kysely, sql } from 'kysely';
import type { Bar } from '../../kernel/market-provider.js';
import type { Engine } from '../../store/engine.js';
import { packBars, yearOf } from '../bars/blocks.js';

interface HeldBar extends Bar {
  loaded_at: string;
  source: string;
}

/**
 * Daily bars a listing-year to a row (bar-blocks.ts), each version kept with when it became known and when a
 * later one replaced it, so a series can be read as known at a past time. The bars held move into it, each
 * block known from its newest bar's load.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('market_bar_blocks')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('bars', engine === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('known_at', 'text', (c) => c.notNull())
    .addColumn('superseded_at', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .execute();
  // One current block a listing-year; every version findable by its known time.
  await sql`CREATE UNIQUE INDEX market_bar_blocks_current ON market_bar_blocks (symbol, year)
    WHERE superseded_at IS NULL`.execute(db);
  await sql`CREATE INDEX market_bar_blocks_known ON market_bar_blocks (symbol, year, known_at)`.execute(db);
  const { rows: symbols } = await sql<{ symbol: string }>`
    SELECT DISTINCT symbol FROM market_bars ORDER BY symbol`.execute(db);
  for (const { symbol } of symbols) {
    const { rows } = await sql<HeldBar>`
      SELECT date, open, high, low, close, volume, source, loaded_at FROM market_bars
      WHERE symbol = ${symbol} ORDER BY date`.execute(db);
    for (let first = 0; first < rows.length; ) {
      const year = yearOf(rows[first]!.date);
      let end = first;
      while (end < rows.length && yearOf(rows[end]!.date) === year) end += 1;
      const block = rows.slice(first, end);
      const newest = block.reduce((a, b) => (b.loaded_at > a.loaded_at ? b : a));
      await sql`INSERT INTO market_bar_blocks (symbol, year, bars, known_at, source, loaded_at)
        VALUES (${symbol}, ${year}, ${packBars(block)}, ${newest.loaded_at}, ${newest.source},
          ${newest.loaded_at})`.execute(db);
      first = end;
    }
  }
  await db.schema.dropTable('market_bars').execute();
}
