// The table of the treasury-rates dataset, added to the store's Database type: the store itself names no
// dataset table.
import type { Generated } from 'kysely';
import type { PointInTimeColumns, RevisionColumns } from '../../store/schema.js';

/** One rate of one day: a par yield, or a bill's bank discount or coupon equivalent, in percent. */
export interface TreasuryRatesTable extends RevisionColumns, PointInTimeColumns {
  id: Generated<number>;
  /** par | bill-discount | bill-coupon */
  series: string;
  /** 1M … 30Y for par yields; 4W … 52W for bills */
  tenor: string;
  date: string;
  value: number;
}

declare module '../../store/schema.js' {
  interface Database {
    treasury_rates: TreasuryRatesTable;
  }
}
