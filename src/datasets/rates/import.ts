// treasury-rates interchange records: one rate of one day, in percent.
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { TREASURY_DAYS } from './calendar.js';
import { RATE_SERIES, TENOR } from './params.js';

export const RateRecord = Type.Object(
  {
    type: Type.Literal('rate'),
    series: Type.Enum(RATE_SERIES),
    tenor: TENOR,
    date: Type.String({ format: 'date' }),
    value: Type.Number({ minimum: -50, maximum: 100 }),
  },
  { additionalProperties: false },
);

export type RateRecordValue = Static<typeof RateRecord>;

export const ratesImporter: Importer<RateRecordValue> = {
  dataset: 'treasury-rates',
  record: RateRecord,
  dateOf: (record) => record.date,
  // A day's rate as first published: that evening, by the calendar (Treasury does not stamp its files).
  publishedAt: (record) => TREASURY_DAYS.published(record.date).toISOString(),
  publishedFrom: 'calendar',
  revision(record) {
    const key = { series: record.series, tenor: record.tenor, date: record.date };
    return { table: 'treasury_rates', key, row: { ...key, value: record.value } };
  },
};
