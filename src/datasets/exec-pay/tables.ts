// The tables of the exec-pay dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';
import type { PointInTimeColumns, RevisionColumns } from '../../store/schema.js';

export interface ExecPayTable extends RevisionColumns, PointInTimeColumns {
  row_id: Generated<number>;
  id: string;
  ticker: string;
  proxy_year: number;
  fiscal_year: number;
  fiscal_year_label: string;
  /** The proxy's acceptance by EDGAR; null for a CEO-pay table's row whose proxy is not held. */
  filed_at: string | null;
  meeting_date: string | null;
  ceo_name: string;
  ceo_title: string;
  ceo_total: number;
  ceo_prior_year_total: number | null;
  pay_ratio: number | null;
  median_employee_pay: number | null;
  /** filing (read from the proxy itself) or ceo-pay-table (a secondary compilation) */
  source_kind: Generated<string>;
}

/** The proxies (DEF 14A) EDGAR lists for a company, with their acceptance times: when a proxy's pay was out. */
export interface ProxyFilingsTable extends RevisionColumns, PointInTimeColumns {
  row_id: Generated<number>;
  accession: string;
  /** ten digits */
  cik: string;
  form: string;
  accepted_at: string;
  filing_date: string;
}

declare module '../../store/schema.js' {
  interface Database {
    exec_pay: ExecPayTable;
    proxy_filings: ProxyFilingsTable;
  }
}
