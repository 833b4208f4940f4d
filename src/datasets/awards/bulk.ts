// The awards bulk files: one row per award, as the listing serves it, with what the source says beyond it.
// The revenue comparison is left out: it is read against the filer's revenue when an award is served.
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const awardsBulk = layout({
  table: 'awards',
  rowId: 'row_id',
  key: ['id'],
  columns: [
    column('id', 'string', 'The award: sha1 of its source and source award id.'),
    column('revisionId', 'string', "sha1 of the revision's content."),
    column('source', 'string', 'usaspending or ted.'),
    column('sourceAwardId', 'string', "The award's id at its source."),
    column('jurisdiction', 'string', 'The country or union of the buyer.'),
    column('awardType', 'string', 'prime, subaward, modification or notice.'),
    column('title', 'string', "The award's title or description."),
    column('awardDate', 'date', 'When it was awarded.'),
    column('fiscalYear', 'integer', "The buyer's fiscal year of the award."),
    column('currency', 'string', 'ISO 4217 currency of the amount.'),
    column('obligatedAmount', 'decimal', 'The amount obligated (see details for what it is).'),
    column('recipientName', 'string', 'The recipient.', { from: 'recipient_name' }),
    column('agencyName', 'string', 'The awarding agency or buyer.', { from: 'agency_name' }),
    column('sector', 'string', "The recipient's sector, where it is a listed company.", { nullable: true }),
    column('ticker', 'string', "The recipient's ticker, where it is a listed company.", { nullable: true }),
    column('parentId', 'string', 'The award this one belongs to (a subaward or modification).', {
      nullable: true,
    }),
    column('sourceUrl', 'string', "The award's page at its source."),
    column('observedAt', 'timestamp', 'When Quarry read the source file.'),
    column('entity', 'json', 'The listed company the recipient is (an object), or null.', { nullable: true }),
    column('details', 'json', 'What the source says beyond the common fields (an object), or null.', {
      nullable: true,
    }),
    ...revisionColumns(),
  ],
});
