// Statement fields by fiscal period end, quarterly or annually, as known on the request's asOf.
import type { MarketProvider } from '../../kernel/market-provider.js';
import { factsKnownOn, statementSeries } from '../compute/statements.js';
import type { Resolved } from '../symbology/resolve.js';
import { STORED } from '../verb/sources.js';
import type { HistoryItem, Row, ServedField } from './item.js';
import type { ReadHistory } from './request.js';

/**
 * Statement fields by fiscal period end in the window, a row per period and null where a field has none; the
 * fields with no period in the window are `missing` (each an error of the item).
 */
export async function statementHistory(
  provider: MarketProvider,
  resolved: Resolved,
  served: ServedField[],
  r: ReadHistory,
): Promise<Pick<HistoryItem, 'rows' | 'stale' | 'derived' | 'source'> & { missing: ServedField[] }> {
  const missing: ServedField[] = [];
  const statements = await provider.statements(resolved);
  const byDate = new Map<string, Row>();
  const derived = new Set<string>();
  for (const f of served) {
    const period = r.period === 'annual' ? 'annual' : 'quarterly';
    const held = statements.get(f.def.id) ?? [];
    const series = statementSeries(f.def.id, r.asOf ? factsKnownOn(held, r.asOf) : held, period);
    const inRange = series.filter((p) => p.end >= r.start && p.end <= r.end);
    if (inRange.length === 0) missing.push(f);
    for (const p of inRange) {
      const row = byDate.get(p.end) ?? { date: p.end };
      row[f.input] = f.millions ? p.value / 1e6 : p.value;
      byDate.set(p.end, row);
      if (p.derived) derived.add(p.end);
    }
  }
  const rows = [...byDate.values()].sort((a, b) => String(a.date).localeCompare(String(b.date)));
  for (const f of served) for (const row of rows) if (!(f.input in row)) row[f.input] = null;
  // A listing's statements come from one place: the store, EDGAR or an upstream.
  const source = [...statements.values()][0]?.[0]?.source ?? STORED;
  return {
    rows,
    missing,
    source,
    ...(provider.staleStatements?.(resolved)
      ? { stale: true, staleReason: 'the upstream could not be reached: the last statements held are served' }
      : {}),
    ...(derived.size ? { derived: [...derived].sort() } : {}),
  };
}
