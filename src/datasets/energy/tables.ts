// The tables of the energy-inventories dataset, added to the store's Database type: the store itself names no dataset table.
import type { Generated } from 'kysely';
import type { PointInTimeColumns, RevisionColumns } from '../../store/schema.js';

export interface EnergySeriesTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  series_id: string;
  /** wpsr | wngsr */
  report: string;
  tab: string;
  label: string;
  unit: string;
  /** Order of the series on the board. */
  position: number;
}

export interface EnergyObservationsTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  series_id: string;
  week_ending: string;
  value: number;
}

export interface EnergyReportsTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  report: string;
  week_ending: string;
  released_at: string | null;
  release_holiday: number;
  next_week_ending: string | null;
  next_release_at: string | null;
  next_release_holiday: number;
}

declare module '../../store/schema.js' {
  interface Database {
    energy_series: EnergySeriesTable;
    energy_observations: EnergyObservationsTable;
    energy_reports: EnergyReportsTable;
  }
}
