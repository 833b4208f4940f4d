// The stored provider: quotes and bars as loaded by `quarry ingest prices|yahoo`. A symbol with bars but no
// recorded quote gets a quote built from its last two bars.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { Bar, MarketProvider, ProviderQuote, StatementFact } from './provider.js';

export class StoredProvider implements MarketProvider {
  constructor(private readonly db: Kysely<Database>) {}

  async quotes(symbols: string[]): Promise<Map<string, ProviderQuote>> {
    const out = new Map<string, ProviderQuote>();
    if (symbols.length === 0) return out;
    const rows = await this.db
      .selectFrom('market_quotes')
      .selectAll()
      .where('symbol', 'in', symbols)
      .execute();
    for (const r of rows) {
      out.set(r.symbol, {
        symbol: r.symbol,
        name: r.name,
        currency: r.currency,
        exchange: r.exchange,
        assetType: r.asset_type,
        asOf: r.as_of,
        fields: JSON.parse(r.fields) as ProviderQuote['fields'],
      });
    }
    for (const symbol of symbols.filter((s) => !out.has(s))) {
      const last = await this.db
        .selectFrom('market_bars')
        .selectAll()
        .where('symbol', '=', symbol)
        .orderBy('date', 'desc')
        .limit(2)
        .execute();
      const [today, before] = last;
      if (!today) continue;
      const year = await this.db
        .selectFrom('market_bars')
        .select((eb) => [
          eb.fn.max('high').as('hi'),
          eb.fn.min('low').as('lo'),
          eb.fn.max('close').as('chi'),
          eb.fn.min('close').as('clo'),
        ])
        .where('symbol', '=', symbol)
        .where(
          'date',
          '>',
          new Date(Date.parse(`${today.date}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10),
        )
        .executeTakeFirst();
      const previous = before?.close ?? null;
      out.set(symbol, {
        symbol,
        name: symbol,
        currency: '',
        exchange: '',
        assetType: '',
        asOf: `${today.date}T00:00:00.000Z`,
        fields: {
          price: today.close,
          open: today.open,
          high: today.high,
          low: today.low,
          volume: today.volume,
          previousClose: previous,
          change: previous === null ? null : round(today.close - previous),
          changePercent: previous ? round(((today.close - previous) / previous) * 100) : null,
          high52w: (year?.hi as number | null) ?? (year?.chi as number | null) ?? null,
          low52w: (year?.lo as number | null) ?? (year?.clo as number | null) ?? null,
          marketState: 'CLOSED',
        },
      });
    }
    return out;
  }

  async statements(ticker: string): Promise<Map<string, StatementFact[]>> {
    const rows = await this.db
      .selectFrom('market_statements')
      .select(['field', 'kind', 'start', 'end', 'value', 'fp', 'currency'])
      .where('symbol', '=', ticker)
      .execute();
    const out = new Map<string, StatementFact[]>();
    for (const r of rows) {
      const list = out.get(r.field) ?? [];
      list.push({
        kind: r.kind as StatementFact['kind'],
        start: r.start,
        end: r.end,
        value: Number(r.value),
        fp: r.fp,
        currency: r.currency,
      });
      out.set(r.field, list);
    }
    return out;
  }

  async lastCloses(symbol: string, count: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('market_bars')
      .select('close')
      .where('symbol', '=', symbol)
      .orderBy('date', 'desc')
      .limit(count)
      .execute();
    return rows.map((r) => Number(r.close)).reverse();
  }

  async bars(symbol: string, from?: string, to?: string): Promise<Bar[]> {
    let q = this.db
      .selectFrom('market_bars')
      .select(['date', 'open', 'high', 'low', 'close', 'volume'])
      .where('symbol', '=', symbol);
    if (from) q = q.where('date', '>=', from);
    if (to) q = q.where('date', '<=', to);
    return q.orderBy('date').execute();
  }
}

function round(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}
