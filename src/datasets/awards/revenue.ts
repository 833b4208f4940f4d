// An award against the recipient's size: where the recipient is a listed company whose annual revenue is held
// (kpis from its XBRL facts), the award's amount over the revenue of the last fiscal year that ended on or
// before the award date, in the same currency. Never across currencies; nothing when no such year is held.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export interface RevenueComparison {
  fiscalYear: number;
  periodEnd: string;
  revenue: string;
  currency: string;
  /** The award's amount over that revenue, to six significant digits. */
  share: number;
}

type Years = { end: string; fiscalYear: number; value: number; currency: string | null }[];

/**
 * The annual revenue series held for these tickers, oldest first: the current figures, or with `at` (an ISO
 * instant) each figure as published by then (a restatement published later is not yet known).
 */
export async function annualRevenue(
  db: Kysely<Database>,
  tickers: readonly string[],
  at: string | null = null,
): Promise<Map<string, Years>> {
  if (tickers.length === 0) return new Map();
  let query = db
    .selectFrom('kpi_facts')
    .select(['symbol', 'fact_key', 'revision', 'period_end', 'fiscal_year', 'value', 'currency'])
    .where('kind', '=', 'kpi')
    .where('series_key', '=', 'revenue:reported:frequency=annual')
    .where('symbol', 'in', [...new Set(tickers)]);
  query = at === null ? query.where('is_current', '=', 1) : query.where('as_of', '<=', at);
  const all = await query.orderBy('period_end').orderBy('revision').execute();
  // Known by `at`, the newest revision of each figure: the last of its fact in revision order.
  const newest = new Map(all.map((r) => [r.fact_key, r]));
  const rows = all.filter((r) => newest.get(r.fact_key) === r);
  const out = new Map<string, Years>();
  for (const r of rows) {
    const years = out.get(r.symbol) ?? [];
    years.push({
      end: r.period_end,
      fiscalYear: r.fiscal_year,
      value: Number(r.value),
      currency: r.currency,
    });
    out.set(r.symbol, years);
  }
  return out;
}

export function compareToRevenue(
  years: Years | undefined,
  award: { awardDate: string; obligatedAmount: string; currency: string },
): RevenueComparison | null {
  const year = years?.filter((y) => y.end <= award.awardDate && y.currency === award.currency).at(-1);
  if (!year || year.value <= 0) return null;
  return {
    fiscalYear: year.fiscalYear,
    periodEnd: year.end,
    revenue: String(year.value),
    currency: award.currency,
    share: Number((Number(award.obligatedAmount) / year.value).toPrecision(6)),
  };
}
