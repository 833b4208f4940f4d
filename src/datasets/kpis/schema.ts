// kpis-guidance data shapes (spec: Dataset data shapes, kpis-guidance).
import { Type } from 'typebox';
import { DateString, Nullable, Timestamp } from '../../kernel/schema.js';

const Basis = Type.Enum(['reported', 'adjusted', 'constant_currency', 'organic']);
const Dimensions = Type.Record(Type.String(), Type.String());

export const Evidence = Type.Object(
  {
    id: Type.String(),
    documentId: Type.String(),
    sourceId: Type.String(),
    sourceKind: Type.String(),
    url: Type.String(),
    title: Type.String(),
    publishedAt: Timestamp,
    country: Type.String(),
    language: Type.String(),
    quote: Type.String(),
    quoteOffset: Type.Integer(),
    quoteSourceLength: Type.Integer(),
    quoteMatchMode: Type.String(),
    confidence: Type.Number(),
  },
  { title: 'KpiEvidence' },
);

export const Fact = Type.Object(
  {
    id: Type.String(),
    symbol: Type.String(),
    metricId: Type.String(),
    metric: Type.String(),
    period: Type.Object({
      start: Nullable(DateString),
      end: DateString,
      kind: Type.String(),
      fiscalYear: Type.Integer(),
      fiscalQuarter: Nullable(Type.Integer()),
      label: Type.String(),
    }),
    value: Type.Number({ description: 'The figure; for a guided range, its midpoint.' }),
    low: Nullable(
      Type.Number({ description: "A guided range's low end; null for a point or approximate figure." }),
    ),
    high: Nullable(
      Type.Number({ description: "A guided range's high end; null for a point or approximate figure." }),
    ),
    unit: Type.String(),
    currency: Nullable(Type.String()),
    basis: Basis,
    dimensions: Dimensions,
    confidence: Type.Number(),
    seriesKey: Type.String(),
    asOf: Timestamp,
    supersedesId: Nullable(Type.String()),
    revision: Type.Integer(),
    current: Type.Boolean(),
    conflict: Type.Boolean(),
    concept: Nullable(
      Type.String({
        description:
          'The XBRL concept the figure was read from (us-gaap:Revenues); null for a figure read from text.',
      }),
    ),
    evidence: Type.Array(Evidence),
  },
  { title: 'KpiFact' },
);

export const Series = Type.Object(
  {
    key: Type.String(),
    metric: Type.String(),
    unit: Type.String(),
    currency: Nullable(Type.String()),
    basis: Basis,
    dimensions: Dimensions,
    latest: Nullable(Fact),
    conceptChanges: Type.Array(
      Type.Object({ periodEnd: DateString, from: Type.String(), to: Type.String() }),
      {
        description:
          "Where the series' figures move from one XBRL concept to another, in period order: each period's figure comes from the first concept of the metric's order that states that period.",
      },
    ),
    observations: Type.Array(Fact),
  },
  { title: 'KpiSeries' },
);

export const Metric = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    sector: Type.String(),
    unit: Type.String(),
    definition: Type.String(),
    aliases: Type.Record(Type.String(), Type.Array(Type.String())),
    favorable: Type.String(),
  },
  { title: 'KpiMetric' },
);

export const KpisData = Type.Object({
  symbol: Type.String(),
  status: Type.String(),
  asOf: Nullable(Timestamp),
  coverage: Type.Object({
    country: Nullable(Type.String()),
    languages: Type.Array(Type.String()),
    documents: Type.Integer(),
    observations: Type.Integer(),
    guidance: Type.Integer(),
    firstPeriod: Nullable(DateString),
    lastPeriod: Nullable(DateString),
    lastPublishedAt: Nullable(Timestamp),
    sourceKinds: Type.Array(Type.String()),
    conflicts: Type.Integer(),
    conceptChanges: Type.Integer({
      description: 'Concept changes across the series shown (see series[].conceptChanges).',
    }),
  }),
  window: Type.Object(
    {
      from: Nullable(DateString),
      to: Nullable(DateString),
      default: Type.Boolean(),
    },
    {
      description:
        'The periods served, by their end dates. Without from or to (default true): those that ended on or after the date three years before the newest period held (as known at asOf); give from (for example from=1900-01-01) for the whole history, priced as the spec prices from and to.',
    },
  ),
  series: Type.Array(Series),
  revisions: Type.Array(
    Type.Object({
      id: Type.String(),
      seriesKey: Type.String(),
      periodEnd: DateString,
      revision: Type.Integer(),
      value: Type.Number(),
      asOf: Timestamp,
      supersededBy: Nullable(Type.String({ description: 'Id of the revision shown in series.' })),
    }),
    {
      description:
        'Earlier revisions of the facts shown (known by asOf, when given), newest revision first per fact.',
    },
  ),
  dictionary: Type.Array(Metric),
  access: Type.String(),
  lockedRows: Type.Integer(),
  totalRows: Type.Integer(),
  truncated: Type.Boolean(),
  previewRows: Type.Integer(),
  methodology: Type.String(),
});
