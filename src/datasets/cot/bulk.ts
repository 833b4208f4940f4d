// The cot bulk files: one row per report of a contract in a report family, each trader class's positions
// flattened into columns (null where the family has no such class).
import { column, derived, jsonMember, layout, revisionColumns } from '../bulk/layout.js';
import { DISAGGREGATED_CLASSES, LEGACY_CLASSES } from './params.js';

const camel = (id: string) => id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const positionColumns = [
  ...DISAGGREGATED_CLASSES,
  ...LEGACY_CLASSES.filter((c) => c !== 'nonreportable'),
].flatMap((traderClass) =>
  (['long', 'short', 'spreading'] as const).map((side) =>
    derived(
      `${camel(traderClass)}${side[0]!.toUpperCase()}${side.slice(1)}`,
      'integer',
      `Contracts held ${side} by the ${traderClass} class (null where the report family has none).`,
      jsonMember('positions', [traderClass, side]),
    ),
  ),
);

export const cotBulk = layout({
  table: 'cot_records',
  rowId: 'id',
  key: ['reportFamily', 'contractCode', 'reportDate'],
  columns: [
    column('reportFamily', 'string', 'legacy or disaggregated.'),
    column('contractCode', 'string', "The CFTC's contract market code (6 characters)."),
    column('reportDate', 'date', 'The Tuesday the positions are as of.'),
    column('marketName', 'string', 'The market and exchange, as the CFTC names them.'),
    column('exchangeCode', 'string', "The CFTC's exchange code."),
    column('commodityCode', 'string', "The CFTC's commodity code."),
    column('openInterest', 'integer', 'Open interest, in contracts.'),
    ...positionColumns,
    ...revisionColumns(),
  ],
});
