// A filing's ticker from its CIK: EDGAR's registrants (company_tickers.json, loaded as the registrants table)
// rank each CIK's tickers, the first its main listing. Shared by the loaders of both APIs.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { LoadContext } from '../run.js';
import { SourceError, type SourceFile } from '../source.js';

/** Ten digits, as EDGAR's paths and the companies table write a CIK. */
export const cik10 = (cik: string | number) => String(cik).padStart(10, '0');

export async function tickersByCik(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('registrants')
    .select(['cik', 'ticker'])
    .where('is_current', '=', 1)
    .where('listed', '=', 1)
    .orderBy('rank', 'desc')
    .execute();
  // Later ranks first, so the first-ranked ticker of each CIK is the one left in the map.
  return new Map(rows.map((r) => [r.cik, r.ticker]));
}

/**
 * The ticker of a filing that names only its CIK: --ticker, else the registrants held (a loader's prepare
 * step reads them with tickersByCik); without either the file is refused, saying what to load first.
 */
export function tickerForCik(
  source: SourceFile,
  context: LoadContext<Map<string, string>>,
  cik: string,
  name: string,
): string {
  const ticker = context.options.ticker?.toUpperCase() ?? context.prepared.get(cik);
  if (!ticker)
    throw new SourceError(
      source.name,
      null,
      `CIK ${cik} (${name}) has no ticker in the store: load company_tickers.json first, or give --ticker`,
    );
  return ticker;
}
