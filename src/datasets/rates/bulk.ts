// The treasury-rates bulk files: one row per rate of a day.
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const ratesBulk = layout({
  table: 'treasury_rates',
  rowId: 'id',
  key: ['series', 'tenor', 'date'],
  columns: [
    column('series', 'string', 'par, bill-discount or bill-coupon.'),
    column('tenor', 'string', 'The tenor: 1M … 30Y, or 4W … 52W for bills.'),
    column('date', 'date', 'The day the rate is of.'),
    column('value', 'number', 'The rate, percent.'),
    ...revisionColumns(),
  ],
});
