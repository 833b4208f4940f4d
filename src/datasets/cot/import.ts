// The cot interchange record: one report of one contract in one report family.
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { CFTC_REPORTS } from './calendar.js';
import { COT_PARAMS, DISAGGREGATED_CLASSES, LEGACY_CLASSES } from './params.js';

const Count = Type.Integer({ minimum: 0 });
const Position = Type.Object(
  { long: Count, short: Count, spreading: Type.Union([Count, Type.Null()]) },
  { additionalProperties: false },
);

export const CotRecord = Type.Object(
  {
    report: Type.Enum(['legacy', 'disaggregated']),
    contractCode: COT_PARAMS.contractCode,
    marketName: Type.String({ minLength: 1, maxLength: 300 }),
    exchangeCode: Type.String({ maxLength: 20 }),
    commodityCode: Type.String({ maxLength: 20 }),
    reportDate: Type.String({ format: 'date' }),
    openInterest: Count,
    positions: Type.Record(Type.String(), Position),
  },
  { additionalProperties: false },
);

export type CotRecordValue = Static<typeof CotRecord>;

export const classesOf = (report: 'legacy' | 'disaggregated'): readonly string[] =>
  report === 'legacy' ? LEGACY_CLASSES : DISAGGREGATED_CLASSES;

export const cotImporter: Importer<CotRecordValue> = {
  dataset: 'cot',
  record: CotRecord,
  dateOf: (record) => record.reportDate,
  // A report is out on the Friday of its week (CFTC_REPORTS), whenever its file is loaded.
  publishedAt: (record) => CFTC_REPORTS.published(record.reportDate).toISOString(),
  publishedFrom: 'calendar',
  check(record) {
    const expected = [...classesOf(record.report)].sort();
    const given = Object.keys(record.positions).sort();
    if (expected.join() !== given.join()) {
      return `positions of a ${record.report} report are ${expected.join(', ')}; got ${given.join(', ') || 'none'}`;
    }
    return null;
  },
  revision(record) {
    const contractCode = record.contractCode.toUpperCase();
    const key = { report_family: record.report, contract_code: contractCode, report_date: record.reportDate };
    return {
      table: 'cot_records',
      key,
      row: {
        ...key,
        market_name: record.marketName,
        exchange_code: record.exchangeCode,
        commodity_code: record.commodityCode,
        open_interest: record.openInterest,
        positions: JSON.stringify(record.positions),
      },
    };
  },
};
