// kpis-guidance reads: a company's facts as series, optionally as they were known on a date.
import type { Selectable } from 'kysely';
import { companyOrNotFound } from '../../ingest/sec/companies.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import type { Deps } from '../../kernel/deps.js';
import { storedMeta } from '../envelope.js';
import { asOfInstant, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import type { KpiFactsTable } from './tables.js';

type Row = Selectable<KpiFactsTable>;
type Evidence = {
  documentId: string;
  quote: string;
  quoteMatchMode: string;
  sourceKind: string;
  country: string;
  language: string;
  publishedAt: string;
};

const METHODOLOGY =
  'Each fact is a figure a company published, with the passage that states it (evidence). A restated figure ' +
  'becomes a new revision that supersedes the earlier one; with asOf, each fact is the revision known at the end ' +
  'of that day (UTC), and facts first published later are left out. Figures read from EDGAR company facts cite ' +
  'the XBRL fact (quoteMatchMode xbrl_fact): the concept, value, unit and period, in the filing named by documentId.';

/** Of all revisions given, the one to show for each fact: the latest known by `cutoff` (or the current one). */
export function asKnown(rows: readonly Row[], cutoff: string | null): { shown: Row[]; superseded: Row[] } {
  const known = cutoff === null ? rows : rows.filter((r) => r.as_of <= cutoff);
  const best = new Map<string, Row>();
  for (const r of known) {
    const seen = best.get(r.fact_key);
    if (!seen || r.revision > seen.revision) best.set(r.fact_key, r);
  }
  const shown = [...best.values()];
  const superseded = known.filter((r) => best.get(r.fact_key) !== r);
  return { shown, superseded };
}

/** The XBRL concept a figure was read from ("us-gaap:Revenues"), as its evidence quotes it; null for text. */
function conceptOf(evidence: readonly Evidence[]): string | null {
  const first = evidence[0];
  return first?.quoteMatchMode === 'xbrl_fact' ? (first.quote.split(' ')[0] ?? null) : null;
}

/** Where a series' figures move from one concept to another, in period order. */
function conceptChanges(observations: readonly { end: string; concept: string | null }[]) {
  const changes: { periodEnd: string; from: string; to: string }[] = [];
  let previous: string | null = null;
  for (const o of [...observations].sort((a, b) => a.end.localeCompare(b.end))) {
    if (o.concept === null) continue;
    if (previous !== null && o.concept !== previous)
      changes.push({ periodEnd: o.end, from: previous, to: o.concept });
    previous = o.concept;
  }
  return changes;
}

function toFact(row: Row, metricName: string) {
  const evidence = JSON.parse(row.evidence) as Evidence[];
  return {
    id: row.id,
    symbol: row.symbol,
    metricId: row.metric_id,
    metric: metricName,
    period: {
      start: row.period_start,
      end: row.period_end,
      kind: row.period_kind,
      fiscalYear: row.fiscal_year,
      fiscalQuarter: row.fiscal_quarter,
      label: row.period_label,
    },
    value: Number(row.value),
    low: row.low === null || row.low === undefined ? null : Number(row.low),
    high: row.high === null || row.high === undefined ? null : Number(row.high),
    unit: row.unit,
    currency: row.currency,
    basis: row.basis,
    dimensions: JSON.parse(row.dimensions) as Record<string, string>,
    confidence: Number(row.confidence),
    seriesKey: row.series_key,
    asOf: row.as_of,
    supersedesId: row.supersedes_id,
    revision: row.revision,
    current: row.is_current === 1,
    conflict: row.conflict === 1,
    concept: conceptOf(evidence),
    evidence,
  };
}

/** The current facts held for the company, whatever a request selects. */
/** Every fact the store holds for the company, as known at `cutoff` (else now): what coverage describes. */
async function heldRows(
  deps: Deps,
  ticker: string,
  kind: 'kpi' | 'guidance',
  cutoff: string | null,
): Promise<Row[]> {
  let q = deps.store.db
    .selectFrom('kpi_facts')
    .selectAll()
    .where('symbol', '=', ticker)
    .where('kind', '=', kind);
  if (cutoff === null) q = q.where('is_current', '=', 1);
  const rows = await q.execute();
  return cutoff === null ? rows : asKnown(rows, cutoff).shown;
}

/**
 * What the store holds for the company: documents, observations, periods, publication, sources, conflicts,
 * and how many times a series changes concept.
 */
function holding(rows: readonly Row[], kind: 'kpi' | 'guidance') {
  const evidence: Evidence[] = [];
  const bySeries = new Map<string, { end: string; concept: string | null }[]>();
  for (const r of rows) {
    const cited = JSON.parse(r.evidence) as Evidence[];
    evidence.push(...cited);
    const list = bySeries.get(r.series_key) ?? [];
    list.push({ end: r.period_end, concept: conceptOf(cited) });
    bySeries.set(r.series_key, list);
  }
  const periods = rows.map((r) => r.period_end).sort();
  const published = rows.map((r) => r.as_of).sort();
  return {
    country: evidence[0]?.country ?? null,
    languages: [...new Set(evidence.map((e) => e.language))].sort(),
    documents: new Set(evidence.map((e) => e.documentId)).size,
    observations: rows.length,
    guidance: kind === 'guidance' ? rows.length : 0,
    firstPeriod: periods[0] ?? null,
    lastPeriod: periods.at(-1) ?? null,
    lastPublishedAt: published.at(-1) ?? null,
    sourceKinds: [...new Set(evidence.map((e) => e.sourceKind))].sort(),
    conflicts: rows.filter((r) => r.conflict === 1).length,
    conceptChanges: [...bySeries.values()].reduce((n, list) => n + conceptChanges(list).length, 0),
  };
}

/** Years of periods a call without `from` or `to` answers, back from the newest period held. */
export const DEFAULT_YEARS = 3;

/**
 * Without `from` or `to`, the periods that ended in the three years to the newest one held (as known at asOf):
 * a company's recent figures, not its whole history, which `from` reaches (at the spec's history price).
 */
function defaultWindow(rows: readonly Row[]) {
  const newest = rows.reduce<string | null>(
    (a, r) => (a === null || r.period_end > a ? r.period_end : a),
    null,
  );
  if (newest === null) return { from: null, to: null, default: true };
  const year = Number(newest.slice(0, 4)) - DEFAULT_YEARS;
  return { from: `${year}${newest.slice(4)}`.replace(/-02-29$/, '-02-28'), to: null, default: true };
}

/** The kpis and guidance routes' query, as their schema types it. */
type KpisQuery = { metric?: string; basis?: string; from?: string; to?: string; asOf?: string };

function readCompany(kind: 'kpi' | 'guidance') {
  return async (deps: Deps, { params, query }: OperationInput<KpisQuery, { symbol: string }>) => {
    const db = deps.store.db;
    const company = await companyOrNotFound(db, params.symbol);
    const { metric, basis, from, to, asOf } = query;
    let q = db
      .selectFrom('kpi_facts')
      .selectAll()
      .where('symbol', '=', company.ticker)
      .where('kind', '=', kind);
    if (metric) q = q.where('metric_id', '=', metric);
    if (basis) q = q.where('basis', '=', basis);
    if (from) q = q.where('period_end', '>=', from);
    if (to) q = q.where('period_end', '<=', to);
    const rows = await q.orderBy('period_end').orderBy('revision').execute();
    const cutoff = asOfInstant(deps, asOf);
    const known = asKnown(rows, cutoff);
    const window =
      from || to ? { from: from ?? null, to: to ?? null, default: false } : defaultWindow(known.shown);
    const inWindow = (r: Row) => window.from === null || r.period_end >= window.from;
    const shown = known.shown.filter(inWindow);

    const metrics = await db.selectFrom('kpi_metrics').selectAll().execute();
    const metricById = new Map(metrics.map((m) => [m.id, m]));
    const facts = shown
      .sort((a, b) => a.period_end.localeCompare(b.period_end))
      .map((r) => toFact(r, metricById.get(r.metric_id)?.name ?? r.metric_id));
    const filtered = Boolean(metric || basis || from || to || asOf || window.from);
    const coverage = holding(filtered ? await heldRows(deps, company.ticker, kind, cutoff) : shown, kind);
    const data = {
      symbol: company.ticker,
      status: 'available',
      asOf:
        facts
          .map((f) => f.asOf)
          .sort()
          .at(-1) ?? null,
      coverage,
      window,
      series: seriesOf(facts),
      revisions: revisionsOf(shown, known.superseded.filter(inWindow)),
      dictionary: dictionaryOf(facts, metricById),
      access: 'full',
      lockedRows: 0,
      totalRows: facts.length,
      truncated: false,
      previewRows: facts.length,
      methodology: METHODOLOGY,
    };
    const periods = facts.map((f) => f.period.end).sort();
    return {
      data,
      meta: storedMeta('kpis-guidance', [SEC_EDGAR], {
        readAsOf: readInstant(deps, cutoff),
        asOf: data.asOf,
        // A fact is known from its filing's acceptance.
        knownFrom: 'filing',
        newestPeriod: periods.at(-1) ?? null,
        historyStarts: periods[0] ?? null,
        coverage: coverage.observations
          ? {
              observations: coverage.observations,
              documents: coverage.documents,
              firstPeriod: coverage.firstPeriod,
              lastPeriod: coverage.lastPeriod,
              lastPublishedAt: coverage.lastPublishedAt,
            }
          : null,
      }),
    };
  };
}

type Fact = ReturnType<typeof toFact>;

/** The facts as series, one a series key, each with its latest observation and the concepts it was read from. */
function seriesOf(facts: Fact[]) {
  const bySeries = new Map<string, Fact[]>();
  for (const f of facts) bySeries.set(f.seriesKey, [...(bySeries.get(f.seriesKey) ?? []), f]);
  return [...bySeries.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, observations]) => {
      const first = observations[0]!;
      return {
        key,
        metric: first.metric,
        unit: first.unit,
        currency: first.currency,
        basis: first.basis,
        dimensions: first.dimensions,
        latest: observations.at(-1) ?? null,
        conceptChanges: conceptChanges(observations.map((o) => ({ end: o.period.end, concept: o.concept }))),
        observations,
      };
    });
}

/** Values superseded by a later filing, newest revision first, each naming the fact that replaced it. */
function revisionsOf(shown: Row[], superseded: Row[]) {
  const shownById = new Map(shown.map((r) => [r.fact_key, r.id]));
  return superseded
    .sort((a, b) => a.fact_key.localeCompare(b.fact_key) || b.revision - a.revision)
    .map((r) => ({
      id: r.id,
      seriesKey: r.series_key,
      periodEnd: r.period_end,
      revision: r.revision,
      value: Number(r.value),
      asOf: r.as_of,
      supersededBy: shownById.get(r.fact_key) ?? null,
    }));
}

/** The metrics the facts are of, as the dictionary defines them. */
function dictionaryOf(
  facts: Fact[],
  metricById: Map<
    string,
    {
      id: string;
      name: string;
      sector: string;
      unit: string;
      definition: string;
      aliases: string;
      favorable: string;
    }
  >,
) {
  return [...new Set(facts.map((f) => f.metricId))]
    .map((id) => metricById.get(id))
    .filter((m) => m !== undefined)
    .map((m) => ({
      id: m.id,
      name: m.name,
      sector: m.sector,
      unit: m.unit,
      definition: m.definition,
      aliases: JSON.parse(m.aliases) as Record<string, string[]>,
      favorable: m.favorable,
    }));
}

export const readKpis = readCompany('kpi');
export const readGuidance = readCompany('guidance');
