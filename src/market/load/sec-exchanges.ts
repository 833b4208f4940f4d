// SEC EDGAR's company_tickers_exchange.json ({"fields": ["cik", "name", "ticker", "exchange"], "data": [...]}):
// the exchange each US listing trades on (Nasdaq, NYSE, CBOE, OTC, or none named) and its registrant's CIK, as
// facts of the listing (EXCH_CODE and CIK in /v1/data). The file is a snapshot of every listing at its date
// (--published, else the load: the file states none): a listing it names without an exchange has none from
// then on, and one held with an exchange that it no longer names has none either. A snapshot older than what is
// held (loaded out of order) fills only what is missing (market/load/import.ts: merged).
import type { Kysely } from 'kysely';
import type { LoadContext } from '../../ingest/run.js';
import { cik10 } from '../../ingest/sec/registrants.js';
import { SourceError, type SourceFile, wholeJson } from '../../ingest/source.js';
import type { Database } from '../../store/schema.js';
import type { MarketRecordValue } from './record.js';

const FIELDS = ['cik', 'name', 'ticker', 'exchange'];

/** What the store holds of earlier snapshots, read before the load's transaction. */
export interface HeldSnapshots {
  /** The listings held with an exchange: those a newer snapshot may no longer name. */
  listed: string[];
  /** The time of the newest snapshot held, and the listings it named. */
  newest: { at: string; named: Set<string> } | null;
}

export async function heldSnapshots(db: Kysely<Database>): Promise<HeldSnapshots> {
  const rows = await db
    .selectFrom('market_facts')
    .select(['symbol', 'fields'])
    .where('fields', 'like', `%"${EXCHANGE_SNAPSHOT_AT}":"%`)
    .execute();
  const facts = rows.map((r) => ({
    symbol: r.symbol,
    fields: JSON.parse(r.fields) as Record<string, unknown>,
  }));
  const at = facts.reduce<string | null>((newest, f) => {
    const time = String(f.fields[EXCHANGE_SNAPSHOT_AT]);
    return newest === null || time > newest ? time : newest;
  }, null);
  return {
    listed: facts.filter((f) => typeof f.fields.exchangeCode === 'string').map((f) => f.symbol),
    newest:
      at === null
        ? null
        : {
            at,
            named: new Set(facts.filter((f) => f.fields[EXCHANGE_SNAPSHOT_AT] === at).map((f) => f.symbol)),
          },
  };
}

/** The fact naming the snapshot a listing's exchange was last stated by. */
export const EXCHANGE_SNAPSHOT_AT = 'exchangeSnapshotAt';

export async function* secExchangeRecords(
  source: SourceFile,
  context: LoadContext<HeldSnapshots | undefined>,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  const body = (await wholeJson(source)) as { fields?: unknown; data?: unknown } | null;
  const fields = Array.isArray(body?.fields) ? body.fields : null;
  if (!fields || !Array.isArray(body?.data) || FIELDS.some((f) => !fields.includes(f)))
    throw new SourceError(
      source.name,
      null,
      `not company_tickers_exchange.json (an object of "fields" naming ${FIELDS.join(', ')}, and "data")`,
    );
  const at = (name: string) => fields.indexOf(name);
  const asOf = snapshotTime(context);
  const newest = context.prepared?.newest ?? null;
  const named = new Set<string>();
  for (const [i, row] of (body.data as unknown[]).entries()) {
    if (!Array.isArray(row)) throw new SourceError(source.name, i + 1, 'a row that is not a list');
    // A ticker padded with spaces ("DAIC ") is the ticker.
    const given = row[at('ticker')];
    const ticker = typeof given === 'string' ? given.trim() : given;
    const cik = row[at('cik')];
    const exchange = row[at('exchange')];
    if (
      typeof ticker !== 'string' ||
      !/^[A-Za-z0-9.-]{1,20}$/.test(ticker) ||
      (typeof cik !== 'number' && typeof cik !== 'string')
    )
      throw new SourceError(source.name, i + 1, `row ${i + 1} has no ticker or CIK`);
    const symbol = ticker.toUpperCase();
    named.add(symbol);
    const code = typeof exchange === 'string' && exchange ? exchange : null;
    const fields = { cik: cik10(cik), exchangeCode: code, [EXCHANGE_SNAPSHOT_AT]: asOf };
    yield { line: i + 1, value: { type: 'facts', symbol, asOf, fields } };
    // Loaded after a newer snapshot: a listing that one did not name had ended by then.
    if (newest !== null && asOf < newest.at && !newest.named.has(symbol))
      yield {
        line: i + 1,
        value: {
          type: 'facts',
          symbol,
          asOf: newest.at,
          fields: { cik: null, exchangeCode: null, [EXCHANGE_SNAPSHOT_AT]: newest.at },
        },
      };
  }
  // Loaded as the newest: a listing held with an exchange that this snapshot does not name has ended.
  if (newest !== null && asOf < newest.at) return;
  const rows = (body.data as unknown[]).length;
  for (const symbol of context.prepared?.listed ?? [])
    if (!named.has(symbol))
      yield {
        line: rows,
        value: {
          type: 'facts',
          symbol,
          asOf,
          fields: { cik: null, exchangeCode: null, [EXCHANGE_SNAPSHOT_AT]: asOf },
        },
      };
}

/** When the snapshot was taken: --published (a date is its start in UTC), else the load. */
function snapshotTime(context: LoadContext): string {
  const given = context.options.published;
  if (given === undefined) return context.now.toISOString();
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(given) ? `${given}T00:00:00Z` : given).toISOString();
}
