import { type Kysely, sql } from 'kysely';

interface Restated {
  symbol: string;
  field: string;
  kind: string;
  start: string;
  end: string;
  value: number;
  filed: string;
  first_value: number;
  first_filed: string;
}

/**
 * Every value a statement period was reported at (migration 032 kept only the first beside the latest), so a
 * period restated twice is read, as of a date between the two restatements, at the value the filings then
 * said. A figure held with a first report other than its latest keeps those two; the next load of the
 * company's facts fills in any report between them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('market_statements').addColumn('reports', 'text').execute();
  const { rows } = await sql<Restated>`
    SELECT symbol, field, kind, start, "end", value, filed, first_value, first_filed FROM market_statements
    WHERE first_value IS NOT NULL AND first_value <> value`.execute(db);
  for (const r of rows) {
    const reports = JSON.stringify([
      { value: Number(r.first_value), filed: r.first_filed },
      { value: Number(r.value), filed: r.filed },
    ]);
    await sql`UPDATE market_statements SET reports = ${reports}
      WHERE symbol = ${r.symbol} AND field = ${r.field} AND kind = ${r.kind} AND start = ${r.start}
        AND "end" = ${r.end}`.execute(db);
  }
  await db.schema.alterTable('market_statements').dropColumn('first_value').execute();
  await db.schema.alterTable('market_statements').dropColumn('first_filed').execute();
}
