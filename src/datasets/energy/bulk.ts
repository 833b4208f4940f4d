// The energy-inventories bulk files: one row per weekly value of a series.
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const energyBulk = layout({
  table: 'energy_observations',
  rowId: 'id',
  key: ['seriesId', 'weekEnding'],
  columns: [
    column('seriesId', 'string', 'The EIA series id (e.g. WCESTUS1).'),
    column('weekEnding', 'date', 'The week the value is for.'),
    column('value', 'number', "The value, in the series' unit."),
    ...revisionColumns(),
  ],
});
