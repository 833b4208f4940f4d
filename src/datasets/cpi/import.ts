// cpi interchange records: the item hierarchy, monthly index levels, relative importance, releases.
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { BLS_MONTHS } from './calendar.js';

const Code = Type.String({ pattern: '^[A-Z0-9]{2,12}$' });
const Period = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' });
const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const CpiRecord = Type.Union([
  Type.Object(
    {
      type: Type.Literal('item'),
      code: Code,
      label: Type.String({ minLength: 1, maxLength: 200 }),
      depth: Type.Integer({ minimum: 0, maximum: 12 }),
      parent: Type.Union([Code, Type.Null()]),
      sortSequence: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('index'),
      code: Code,
      seasonal: Type.Enum(['S', 'U']),
      period: Period,
      value: Type.Number({ exclusiveMinimum: 0 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('weight'),
      code: Code,
      weightsPeriod: Period,
      weight: Type.Number({ minimum: 0, maximum: 100 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('series'),
      id: Type.String({ pattern: '^[A-Z0-9]{4,20}$' }),
      code: Code,
      seasonal: Type.Enum(['S', 'U']),
      title: Type.String({ minLength: 1, maxLength: 300 }),
      firstPeriod: Type.Union([Period, Type.Null()]),
      lastPeriod: Type.Union([Period, Type.Null()]),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('release'),
      period: Period,
      releasedAt: Time,
      nextPeriod: Type.Union([Period, Type.Null()]),
      nextReleaseAt: Time,
    },
    { additionalProperties: false },
  ),
]);

export type CpiRecordValue = Static<typeof CpiRecord>;

export const cpiImporter: Importer<CpiRecordValue> = {
  dataset: 'cpi',
  record: CpiRecord,
  dateOf(record) {
    if (record.type === 'index') return `${record.period}-01`;
    if (record.type === 'weight') return `${record.weightsPeriod}-01`;
    return undefined as unknown as string;
  },
  // A month's index is out by the 20th of the next (BLS_MONTHS: the latest day, so never early).
  publishedAt: (record) =>
    record.type === 'index' ? BLS_MONTHS.published(record.period).toISOString() : undefined,
  publishedFrom: 'calendar',
  revision(record) {
    switch (record.type) {
      case 'item': {
        const key = { item_code: record.code };
        const row = {
          ...key,
          label: record.label,
          depth: record.depth,
          parent: record.parent,
          sort_sequence: record.sortSequence,
        };
        return { table: 'cpi_items', key, row };
      }
      case 'index': {
        const key = { item_code: record.code, seasonal: record.seasonal, period: record.period };
        return { table: 'cpi_index', key, row: { ...key, value: record.value } };
      }
      case 'weight': {
        const key = { item_code: record.code, weights_period: record.weightsPeriod };
        return { table: 'cpi_weights', key, row: { ...key, weight: record.weight } };
      }
      case 'series': {
        const key = { series_id: record.id };
        const row = {
          ...key,
          item_code: record.code,
          seasonal: record.seasonal,
          title: record.title,
          first_period: record.firstPeriod,
          last_period: record.lastPeriod,
        };
        return { table: 'cpi_series', key, row };
      }
      case 'release': {
        const key = { period: record.period };
        const row = {
          ...key,
          released_at: record.releasedAt,
          next_period: record.nextPeriod,
          next_release_at: record.nextReleaseAt,
        };
        return { table: 'cpi_releases', key, row };
      }
    }
  },
};
