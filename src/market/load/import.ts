// Market-data records: a quote (latest values by field id) or a daily bar, by provider symbol, prices in main
// units. Loaded through the same import path as the datasets; a bar loaded again with other values replaces it.
import { Type } from 'typebox';
import type { Importer } from '../../datasets/import.js';
import type { WriteOutcome } from '../../store/revisions.js';

const Num = Type.Union([Type.Number(), Type.Null()]);

export const MarketRecord = Type.Union([
  Type.Object(
    {
      type: Type.Literal('quote'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      name: Type.String(),
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      exchange: Type.String(),
      assetType: Type.Enum(['equity', 'fund', 'index', 'future', 'currency', 'crypto']),
      asOf: Type.String({ format: 'date-time' }),
      fields: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('bar'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      date: Type.String({ format: 'date' }),
      open: Num,
      high: Num,
      low: Num,
      close: Type.Number(),
      volume: Num,
    },
    { additionalProperties: false },
  ),
]);

export type MarketRecordValue =
  | {
      type: 'quote';
      symbol: string;
      name: string;
      currency: string;
      exchange: string;
      assetType: string;
      asOf: string;
      fields: Record<string, number | string | null>;
    }
  | {
      type: 'bar';
      symbol: string;
      date: string;
      open: number | null;
      high: number | null;
      low: number | null;
      close: number;
      volume: number | null;
    };

export const marketImporter: Importer<MarketRecordValue> = {
  dataset: 'market',
  record: MarketRecord,
  dateOf: (record) => (record.type === 'bar' ? record.date : record.asOf.slice(0, 10)),
  async write(tx, record, meta): Promise<WriteOutcome> {
    if (record.type === 'quote') {
      const existing = await tx
        .selectFrom('market_quotes')
        .select('content_hash')
        .where('symbol', '=', record.symbol)
        .executeTakeFirst();
      if (existing?.content_hash === meta.hash) return 'unchanged';
      const row = {
        symbol: record.symbol,
        name: record.name,
        currency: record.currency,
        exchange: record.exchange,
        asset_type: record.assetType,
        fields: JSON.stringify(record.fields),
        as_of: record.asOf,
        content_hash: meta.hash,
        source: meta.source,
        loaded_at: meta.loadedAt,
      };
      await tx
        .insertInto('market_quotes')
        .values(row)
        .onConflict((oc) => oc.column('symbol').doUpdateSet(row))
        .execute();
      return existing ? 'revised' : 'inserted';
    }
    const existing = await tx
      .selectFrom('market_bars')
      .select(['open', 'high', 'low', 'close', 'volume'])
      .where('symbol', '=', record.symbol)
      .where('date', '=', record.date)
      .executeTakeFirst();
    const same =
      existing &&
      existing.open === record.open &&
      existing.high === record.high &&
      existing.low === record.low &&
      existing.close === record.close &&
      existing.volume === record.volume;
    if (same) return 'unchanged';
    const row = {
      symbol: record.symbol,
      date: record.date,
      open: record.open,
      high: record.high,
      low: record.low,
      close: record.close,
      volume: record.volume,
      source: meta.source,
      loaded_at: meta.loadedAt,
    };
    await tx
      .insertInto('market_bars')
      .values(row)
      .onConflict((oc) => oc.columns(['symbol', 'date']).doUpdateSet(row))
      .execute();
    return existing ? 'revised' : 'inserted';
  },
};
