// SEC EDGAR's company_tickers_exchange.json ({"fields": ["cik", "name", "ticker", "exchange"], "data": [...]}):
// the exchange each US listing trades on (Nasdaq, NYSE, CBOE, OTC, or none named) and its registrant's CIK, as
// facts of the listing (EXCH_CODE and CIK in /v1/data), as of the load: the file states no date. A listing
// without an exchange keeps its CIK only.
import type { LoadContext } from '../../ingest/run.js';
import { cik10 } from '../../ingest/sec/registrants.js';
import { SourceError, type SourceFile, wholeJson } from '../../ingest/source.js';
import type { MarketRecordValue } from './record.js';

const FIELDS = ['cik', 'name', 'ticker', 'exchange'];

export async function* secExchangeRecords(
  source: SourceFile,
  context: LoadContext,
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
  const asOf = context.now.toISOString();
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
    yield {
      line: i + 1,
      value: {
        type: 'facts',
        symbol: ticker.toUpperCase(),
        asOf,
        fields: {
          cik: cik10(cik),
          ...(typeof exchange === 'string' && exchange ? { exchangeCode: exchange } : {}),
        },
      },
    };
  }
}
