// The cpi bulk files: one row per index value of a component, seasonally adjusted or not, in a month.
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const cpiBulk = layout({
  table: 'cpi_index',
  rowId: 'id',
  key: ['itemCode', 'seasonal', 'period'],
  columns: [
    column('itemCode', 'string', 'The BLS item code of the component (SA0 is all items).'),
    column('seasonal', 'string', 'S: seasonally adjusted; U: not.'),
    column('period', 'string', 'The month, YYYY-MM.'),
    column('value', 'number', 'The index level.'),
    ...revisionColumns(),
  ],
});
