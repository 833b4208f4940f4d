// energy-inventories data shape (spec: Dataset data shapes, energy-inventories).
import { Type } from 'typebox';
import { DateString, Nullable, Timestamp } from '../../kernel/schema.js';

export const EnergyReport = Type.Object(
  {
    id: Type.String(),
    weekEnding: DateString,
    releasedAt: Nullable(Timestamp),
    releaseHoliday: Type.Boolean(),
    nextWeekEnding: Nullable(DateString),
    nextReleaseAt: Nullable(Timestamp),
    nextReleaseHoliday: Type.Boolean(),
  },
  { title: 'EnergyReport' },
);

export const EnergySeries = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    report: Type.String(),
    tab: Type.String(),
    label: Type.String(),
    unit: Type.String(),
    weekEnding: DateString,
    value: Nullable(Type.Number()),
    previousWeekEnding: Nullable(DateString),
    weekChange: Nullable(Type.Number()),
    yearAgo: Nullable(Type.Number()),
    fiveYear: Nullable(Type.Number()),
    read: Nullable(Type.String()),
    seasonal: Nullable(Type.String()),
  },
  { title: 'EnergySeries' },
);

export const EnergyData = Type.Object({
  source: Type.String(),
  generatedAt: Timestamp,
  status: Type.String(),
  gaps: Type.Array(Type.String()),
  reports: Type.Array(EnergyReport),
  series: Type.Array(EnergySeries),
});
