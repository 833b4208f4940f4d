// The tables of the cot dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';

export interface CotRecordsTable {
  id: Generated<number>;
  report_family: string;
  contract_code: string;
  report_date: string;
  market_name: string;
  exchange_code: string;
  commodity_code: string;
  open_interest: number;
  /** JSON: {traderClass: {long, short, spreading}} */
  positions: string;
  content_hash: string;
  revision: number;
  is_current: number;
  source: string;
  loaded_at: string;
  known_at: Generated<string>;
  known_from: Generated<string | null>;
  superseded_at: Generated<string | null>;
}

declare module '../../store/schema.js' {
  interface Database {
    cot_records: CotRecordsTable;
  }
}
