// The tables of the kpis-guidance dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';
import type { RevisionColumns } from '../../store/schema.js';

export interface KpiFactsTable extends RevisionColumns {
  row_id: Generated<number>;
  /** sha1 of the fact key and revision */
  id: string;
  /** what stays the same across revisions: kind, symbol, metric, period, basis, dimensions */
  fact_key: string;
  /** kpi | guidance */
  kind: string;
  symbol: string;
  metric_id: string;
  series_key: string;
  period_start: string | null;
  period_end: string;
  period_kind: string;
  fiscal_year: number;
  fiscal_quarter: number | null;
  period_label: string;
  value: number;
  /** a guided range's ends; null for a point or approximate figure */
  low: Generated<number | null>;
  high: Generated<number | null>;
  unit: string;
  currency: string | null;
  basis: string;
  /** JSON object */
  dimensions: string;
  confidence: number;
  /** when the fact became known (its document's publication time) */
  as_of: string;
  supersedes_id: string | null;
  conflict: number;
  /** JSON array */
  evidence: string;
}

export interface KpiMetricsTable {
  id: string;
  name: string;
  sector: string;
  unit: string;
  definition: string;
  /** JSON object */
  aliases: string;
  favorable: string;
  updated_at: string;
}

declare module '../../store/schema.js' {
  interface Database {
    kpi_facts: KpiFactsTable;
    kpi_metrics: KpiMetricsTable;
  }
}
