// The tables of the cpi dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';
import type { PointInTimeColumns, RevisionColumns } from '../../store/schema.js';

export interface CpiItemsTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  item_code: string;
  label: string;
  depth: number;
  parent: string | null;
  sort_sequence: number;
}

export interface CpiIndexTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  item_code: string;
  /** S seasonally adjusted, U not */
  seasonal: string;
  /** YYYY-MM */
  period: string;
  value: number;
}

export interface CpiWeightsTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  item_code: string;
  /** YYYY-MM of the December the relative importance refers to */
  weights_period: string;
  /** percent of all items */
  weight: number;
}

export interface CpiReleasesTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  period: string;
  released_at: string | null;
  next_period: string | null;
  next_release_at: string | null;
}

export interface CpiSeriesTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  series_id: string;
  item_code: string;
  seasonal: string;
  title: string;
  first_period: string | null;
  last_period: string | null;
}

declare module '../../store/schema.js' {
  interface Database {
    cpi_items: CpiItemsTable;
    cpi_index: CpiIndexTable;
    cpi_weights: CpiWeightsTable;
    cpi_releases: CpiReleasesTable;
    cpi_series: CpiSeriesTable;
  }
}
