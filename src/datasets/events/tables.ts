// The tables of the events dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';
import type { PointInTimeColumns, RevisionColumns } from '../../store/schema.js';

export interface EventsTable extends RevisionColumns, PointInTimeColumns {
  row_id: Generated<number>;
  /** accession number */
  id: string;
  ticker: string;
  form: string;
  filed_at: string;
  filing_date: string;
  doc_url: string;
  /** JSON array of item codes */
  items: string;
  headline: string | null;
  summary: string | null;
  /** JSON array */
  people: string;
}

declare module '../../store/schema.js' {
  interface Database {
    events: EventsTable;
  }
}
