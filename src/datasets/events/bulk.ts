// The events bulk files: one row per 8-K filing.
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const eventsBulk = layout({
  table: 'events',
  rowId: 'row_id',
  key: ['id'],
  columns: [
    column('id', 'string', 'The accession number.'),
    column('ticker', 'string', "The filer's ticker."),
    column('form', 'string', 'The form (8-K, 8-K/A).'),
    column('filedAt', 'timestamp', 'When EDGAR accepted the filing.'),
    column('filingDate', 'date', 'The filing date.'),
    column('docUrl', 'string', "The filing's primary document."),
    column('items', 'json', 'The item codes it reports (an array).'),
    column('headline', 'string', 'A headline for the filing.', { nullable: true }),
    column('summary', 'string', 'A summary of the filing.', { nullable: true }),
    column('people', 'json', 'The people it names (an array).'),
    ...revisionColumns(),
  ],
});
