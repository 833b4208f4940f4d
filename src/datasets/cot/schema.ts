// cot data shape (spec: Dataset data shapes, cot).
import { Type } from 'typebox';
import { DateString, Nullable, Timestamp } from '../../kernel/schema.js';

const num = Nullable(Type.Number());

export const Percentile = Type.Object(
  {
    value: num,
    rank: num,
    sampleCount: num,
    windowStart: Nullable(DateString),
    windowEnd: Nullable(DateString),
    historyStart: Nullable(DateString),
    historyEnd: Nullable(DateString),
    completeWindow: Type.Boolean(),
    min: num,
    max: num,
    mean: num,
  },
  { title: 'CotPercentile' },
);

export const Position = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    long: Type.Number(),
    short: Type.Number(),
    spreading: Nullable(Type.Number()),
    net: Type.Number(),
    netPercentOfOpenInterest: Type.Number({ description: 'Net as a percent of open interest.' }),
    longPercentOfOpenInterest: Nullable(
      Type.Number({
        description: "Long as a percent of open interest (the CFTC's % of OI, to two decimals).",
      }),
    ),
    shortPercentOfOpenInterest: Nullable(
      Type.Number({
        description: "Short as a percent of open interest (the CFTC's % of OI, to two decimals).",
      }),
    ),
    weeklyChange: Nullable(Type.Number()),
    previousReportDate: Nullable(DateString),
    percentile1Y: Percentile,
    percentile3Y: Percentile,
  },
  { title: 'CotPosition' },
);

export const CotRow = Type.Object(
  {
    contractCode: Type.String(),
    marketName: Type.String(),
    exchangeCode: Type.String(),
    commodityCode: Type.String(),
    reportDate: DateString,
    openInterest: Type.Number(),
    position: Position,
    status: Type.String({ examples: ['available'] }),
  },
  { title: 'CotRow' },
);

export const CotData = Type.Object({
  source: Type.String(),
  scope: Type.String(),
  reportFamily: Type.String(),
  generatedAt: Timestamp,
  asOf: Nullable(DateString),
  fetchedAt: Nullable(Timestamp),
  publishedAt: Nullable(Timestamp),
  status: Type.String({ examples: ['available', 'partial'] }),
  gaps: Type.Array(Type.String()),
  classes: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
  traderClass: Type.String(),
  rows: Type.Array(CotRow),
});
