// Daily price CSVs in the layouts published alongside market data: Date,Open,High,Low,Close[,Adj Close],Volume
// in any column order, DATE,OPEN,… in capitals, or Date,Price (a close only). The instrument is named with
// --ticker in any form; listings priced in minor units (London, Johannesburg, Tel Aviv) are stored in main units.

import type { LoadContext } from '../../ingest/run.js';
import { csvFields, SourceError, type SourceFile } from '../../ingest/source.js';
import { resolveTicker } from '../symbology/resolve.js';
import { VENUES } from '../symbology/tables.js';
import type { MarketRecordValue } from './import.js';

/** A provider price in main units, without the float noise a division leaves (1.4566000399999999). */
export function toMain(value: number, factor: number): number {
  return factor === 1 ? value : Math.round((value / factor) * 1e10) / 1e10;
}

/** How many provider units make one main unit for this listing (100 for prices in pence). */
export function providerFactor(mic: string | null): number {
  return mic ? (VENUES[mic]?.minor?.factor ?? 1) : 1;
}

export async function* priceRecords(
  source: SourceFile,
  context: LoadContext,
): AsyncGenerator<{ line: number; value: MarketRecordValue }> {
  const ticker = context.options.ticker;
  if (!ticker) throw new SourceError(source.name, null, 'name the instrument with --ticker');
  const resolution = resolveTicker(ticker);
  if (resolution.status !== 'ok')
    throw new SourceError(source.name, null, `--ticker ${ticker}: ${resolution.error.message}`);
  const { symbol, mic } = resolution.resolved;
  const factor = providerFactor(mic);
  let columns: Map<string, number> | null = null;
  for await (const { line, text } of source.lines()) {
    if (!text.trim()) continue;
    const fields = csvFields(text).map((f) => f.trim());
    if (!columns) {
      columns = new Map(fields.map((name, i) => [name.toLowerCase().replace(/\s+/g, ''), i]));
      if (!columns.has('date') || !(columns.has('close') || columns.has('price'))) {
        throw new SourceError(source.name, line, 'expected a Date column and a Close (or Price) column');
      }
      continue;
    }
    const get = (name: string): number | null => {
      const i = columns?.get(name);
      if (i === undefined) return null;
      const v = fields[i] ?? '';
      if (v === '' || v === 'null' || v === '.') return null;
      const n = Number(v);
      if (!Number.isFinite(n)) throw new SourceError(source.name, line, `${name} "${v}" is not a number`);
      return n;
    };
    const date = fields[columns.get('date') as number] ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date))
      throw new SourceError(source.name, line, `date "${date}" is not YYYY-MM-DD`);
    const close = get('close') ?? get('price');
    if (close === null) continue; // a day with no trade
    const scale = (v: number | null) => (v === null ? null : toMain(v, factor));
    yield {
      line,
      value: {
        type: 'bar',
        symbol,
        date,
        open: scale(get('open')),
        high: scale(get('high')),
        low: scale(get('low')),
        close: toMain(close, factor),
        volume: get('volume'),
      },
    };
  }
}
