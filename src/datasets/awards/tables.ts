// The tables of the awards dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';

export interface AwardsTable {
  row_id: Generated<number>;
  /** sha1 of source and source award id: 40 lowercase hex */
  id: string;
  /** sha1 of the record's content */
  revision_id: string;
  source: string;
  source_award_id: string;
  jurisdiction: string;
  award_type: string;
  title: string;
  award_date: string;
  fiscal_year: number;
  currency: string;
  /** exact decimal text */
  obligated_amount: string;
  /** fixed-width text whose order is the order of nonnegative amounts; negative amounts sort first */
  amount_key: string;
  /** the amount in millionths, where it fits in 53 bits */
  amount_micros: number | null;
  recipient_name: string;
  agency_name: string;
  sector: string | null;
  ticker: string | null;
  parent_id: string | null;
  source_url: string;
  observed_at: string;
  entity: string | null;
  revenue_comparison: string | null;
  revision: number;
  is_current: number;
  loaded_at: string;
  load_source: string;
  /** When this revision became known: the source's date for it where it states one, else its load (ISO) */
  known_at: string;
  /** Where known_at came from (store/revisions.ts KnownFrom); null for revisions written before it was kept. */
  known_from: string | null;
  /** When a later revision became known; null while this one is current */
  superseded_at: string | null;
  /** JSON: what the source says beyond the common fields (amount kind, face value, sub-agency, …) */
  details: Generated<string | null>;
}

declare module '../../store/schema.js' {
  interface Database {
    awards: AwardsTable;
  }
}
