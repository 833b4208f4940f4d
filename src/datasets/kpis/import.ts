// kpis-guidance interchange records: metric definitions, and facts (reported KPIs or guidance) with the
// evidence that cites them. A fact restated later becomes a new revision that supersedes the earlier one.
import { hash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import type { Importer, WriteMeta } from '../../ingest/import.js';
import { CompanyFields, type CompanyRecord, upsertCompany } from '../../ingest/sec/companies.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import type { WriteOutcome } from '../../store/revisions.js';
import type { Database } from '../../store/schema.js';
import { KPI_PARAMS } from './params.js';

const Day = Type.String({ format: 'date' });
const Time = Type.String({ format: 'date-time' });

const Evidence = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    documentId: Type.String({ minLength: 1 }),
    sourceId: Type.String({ minLength: 1 }),
    sourceKind: Type.String({ minLength: 1 }),
    url: Type.String({ format: 'uri' }),
    title: Type.String(),
    publishedAt: Time,
    country: Type.String(),
    language: Type.String(),
    quote: Type.String({ minLength: 1 }),
    quoteOffset: Type.Integer({ minimum: 0 }),
    quoteSourceLength: Type.Integer({ minimum: 0 }),
    quoteMatchMode: Type.String(),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { additionalProperties: false },
);

export const KpiRecord = Type.Union([
  Type.Object(
    {
      type: Type.Literal('metric'),
      id: KPI_PARAMS.metric,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      sector: Type.String({ maxLength: 100 }),
      unit: Type.String({ minLength: 1, maxLength: 40 }),
      definition: Type.String({ maxLength: 2000 }),
      aliases: Type.Record(Type.String(), Type.Array(Type.String())),
      favorable: Type.Enum(['higher', 'lower', 'neutral']),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('fact'),
      kind: Type.Enum(['kpi', 'guidance']),
      ...CompanyFields,
      metricId: KPI_PARAMS.metric,
      period: Type.Object(
        {
          start: Type.Union([Day, Type.Null()]),
          end: Day,
          kind: Type.Enum(['quarter', 'half', 'year', 'month', 'point']),
          fiscalYear: Type.Integer({ minimum: 1900, maximum: 2100 }),
          fiscalQuarter: Type.Union([Type.Integer({ minimum: 1, maximum: 4 }), Type.Null()]),
          label: Type.String({ minLength: 1, maxLength: 40 }),
        },
        { additionalProperties: false },
      ),
      value: Type.Number(),
      low: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      high: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      unit: Type.String({ minLength: 1, maxLength: 40 }),
      currency: Type.Union([Type.String({ pattern: '^[A-Z]{3}$' }), Type.Null()]),
      basis: KPI_PARAMS.basis,
      dimensions: Type.Record(Type.String(), Type.String()),
      confidence: Type.Number({ minimum: 0, maximum: 1 }),
      asOf: Time,
      conflict: Type.Boolean(),
      evidence: Type.Array(Evidence, { minItems: 1 }),
    },
    { additionalProperties: false },
  ),
]);

export interface FactRecord extends CompanyRecord {
  type: 'fact';
  kind: 'kpi' | 'guidance';
  metricId: string;
  period: {
    start: string | null;
    end: string;
    kind: string;
    fiscalYear: number;
    fiscalQuarter: number | null;
    label: string;
  };
  value: number;
  /** A guided range's ends. */
  low?: number | null;
  high?: number | null;
  unit: string;
  currency: string | null;
  basis: string;
  dimensions: Record<string, string>;
  confidence: number;
  asOf: string;
  conflict: boolean;
  evidence: Record<string, unknown>[];
}

export interface MetricRecord {
  type: 'metric';
  id: string;
  name: string;
  sector: string;
  unit: string;
  definition: string;
  aliases: Record<string, string[]>;
  favorable: string;
}

/** SHA-1 of a text in hex, in one call (a Hash object per text costs more than the hashing). */
const sha1 = (text: string) => hash('sha1', text, 'hex');

/** A series: one metric on one basis with one set of dimensions. */
export function seriesKey(metricId: string, basis: string, dimensions: Record<string, string>): string {
  const dims = Object.entries(dimensions)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return dims ? `${metricId}:${basis}:${dims}` : `${metricId}:${basis}`;
}

async function writeFact(
  tx: Transaction<Database>,
  record: FactRecord,
  meta: WriteMeta,
): Promise<WriteOutcome> {
  await upsertCompany(tx, record, meta.loadedAt);
  const series = seriesKey(record.metricId, record.basis, record.dimensions);
  const key = [record.kind, record.ticker, series, record.period.kind, record.period.end].join('|');
  const revisions = await tx
    .selectFrom('kpi_facts')
    .select(['id', 'content_hash', 'revision', 'row_id', 'is_current'])
    .where('fact_key', '=', key)
    .execute();
  // A fact known already, as the current figure or as one it restated, changes nothing: a file loaded again
  // that holds a period's whole history of figures leaves that history as it is.
  if (revisions.some((r) => r.content_hash === meta.hash)) return 'unchanged';
  const previous = revisions.find((r) => r.is_current === 1);
  if (previous)
    await tx.updateTable('kpi_facts').set({ is_current: 0 }).where('row_id', '=', previous.row_id).execute();
  const revision = (previous?.revision ?? 0) + 1;
  await tx
    .insertInto('kpi_facts')
    .values({
      id: sha1(`${key}#${revision}`),
      fact_key: key,
      kind: record.kind,
      symbol: record.ticker,
      metric_id: record.metricId,
      series_key: series,
      period_start: record.period.start,
      period_end: record.period.end,
      period_kind: record.period.kind,
      fiscal_year: record.period.fiscalYear,
      fiscal_quarter: record.period.fiscalQuarter,
      period_label: record.period.label,
      value: record.value,
      low: record.low ?? null,
      high: record.high ?? null,
      unit: record.unit,
      currency: record.currency,
      basis: record.basis,
      dimensions: canonicalJson(record.dimensions),
      confidence: record.confidence,
      as_of: new Date(record.asOf).toISOString(),
      supersedes_id: previous?.id ?? null,
      conflict: record.conflict ? 1 : 0,
      evidence: JSON.stringify(record.evidence),
      content_hash: meta.hash,
      revision,
      is_current: 1,
      source: meta.source,
      loaded_at: meta.loadedAt,
    })
    .execute();
  return previous ? 'revised' : 'inserted';
}

export const kpisImporter: Importer<FactRecord | MetricRecord> = {
  dataset: 'kpis-guidance',
  record: KpiRecord,
  check(record) {
    if (record.type === 'fact' && record.period.start !== null && record.period.start > record.period.end) {
      return 'period.start is after period.end';
    }
    if (record.type === 'fact' && (record.low ?? null) !== null && (record.high ?? null) !== null) {
      if ((record.low as number) > (record.high as number)) return 'low is above high';
    }
    return null;
  },
  async write(tx, record, meta) {
    if (record.type === 'fact') return writeFact(tx, record, meta);
    const row = {
      id: record.id,
      name: record.name,
      sector: record.sector,
      unit: record.unit,
      definition: record.definition,
      aliases: JSON.stringify(record.aliases),
      favorable: record.favorable,
      updated_at: meta.loadedAt,
    };
    const existing = await tx
      .selectFrom('kpi_metrics')
      .selectAll()
      .where('id', '=', record.id)
      .executeTakeFirst();
    if (
      existing &&
      canonicalJson({ ...existing, updated_at: '' }) === canonicalJson({ ...row, updated_at: '' })
    ) {
      return 'unchanged';
    }
    await tx
      .insertInto('kpi_metrics')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute();
    return existing ? 'revised' : 'inserted';
  },
};
