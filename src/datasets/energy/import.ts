// energy-inventories interchange records: series descriptions, weekly observations, report calendars.
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { EIA_GAS_WEEKS, EIA_WEEKS } from './calendar.js';

const SeriesId = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' });
const Day = Type.String({ format: 'date' });
const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const Report = Type.Enum(['wpsr', 'wngsr']);

export const EnergyRecord = Type.Union([
  Type.Object(
    {
      type: Type.Literal('series'),
      series: SeriesId,
      report: Report,
      tab: Type.String({ minLength: 1, maxLength: 40 }),
      label: Type.String({ minLength: 1, maxLength: 200 }),
      unit: Type.String({ minLength: 1, maxLength: 40 }),
      position: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('observation'),
      series: SeriesId,
      weekEnding: Day,
      value: Type.Number(),
      /** The report that publishes the series: its week's release is when the figure was first known. */
      report: Type.Optional(Report),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('report'),
      report: Report,
      weekEnding: Day,
      releasedAt: Time,
      releaseHoliday: Type.Boolean(),
      nextWeekEnding: Type.Union([Day, Type.Null()]),
      nextReleaseAt: Time,
      nextReleaseHoliday: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
]);

export type EnergyRecordValue = Static<typeof EnergyRecord>;

export const energyImporter: Importer<EnergyRecordValue> = {
  dataset: 'energy-inventories',
  record: EnergyRecord,
  dateOf(record) {
    return record.type === 'series' ? (undefined as unknown as string) : record.weekEnding;
  },
  // A week's figure as first published: its report's release for that week; a report record at its release.
  publishedAt(record) {
    if (record.type === 'report') return record.releasedAt ?? undefined;
    if (record.type !== 'observation' || !record.report) return undefined;
    const calendar = record.report === 'wngsr' ? EIA_GAS_WEEKS : EIA_WEEKS;
    return calendar.published(record.weekEnding).toISOString();
  },
  publishedFrom: 'calendar',
  revision(record) {
    switch (record.type) {
      case 'series': {
        const key = { series_id: record.series };
        const row = {
          ...key,
          report: record.report,
          tab: record.tab,
          label: record.label,
          unit: record.unit,
          position: record.position,
        };
        return { table: 'energy_series', key, row };
      }
      case 'observation': {
        const key = { series_id: record.series, week_ending: record.weekEnding };
        return { table: 'energy_observations', key, row: { ...key, value: record.value } };
      }
      case 'report': {
        const key = { report: record.report, week_ending: record.weekEnding };
        const row = {
          ...key,
          released_at: record.releasedAt,
          release_holiday: record.releaseHoliday ? 1 : 0,
          next_week_ending: record.nextWeekEnding,
          next_release_at: record.nextReleaseAt,
          next_release_holiday: record.nextReleaseHoliday ? 1 : 0,
        };
        return { table: 'energy_reports', key, row };
      }
    }
  },
};
