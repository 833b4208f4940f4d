// exec-pay reads: a company's proxy statements, and those covering one fiscal year.
import { type Selectable, sql } from 'kysely';
import { type Company, companyOrNotFound } from '../../ingest/sec/companies.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import type { Deps } from '../../kernel/deps.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import { asOfInstant, knownAt, newestKnown, readInstant } from '../known.js';
import type { OperationInput } from '../operation.js';
import type { ExecPayTable } from './tables.js';

function toProxy(row: Selectable<ExecPayTable>, company: Company) {
  return {
    id: row.id,
    ticker: row.ticker,
    company: company.name,
    proxyYear: row.proxy_year,
    fiscalYear: row.fiscal_year,
    fiscalYearLabel: row.fiscal_year_label,
    filedAt: row.filed_at,
    meetingDate: row.meeting_date,
    updatedAt: row.loaded_at,
    ceoName: row.ceo_name,
    ceoTitle: row.ceo_title,
    ceoTotal: Number(row.ceo_total),
    ceoPriorYearTotal: row.ceo_prior_year_total === null ? null : Number(row.ceo_prior_year_total),
    payRatio: row.pay_ratio === null ? null : Number(row.pay_ratio),
    medianEmployeePay: row.median_employee_pay === null ? null : Number(row.median_employee_pay),
    source: row.source_kind,
  };
}

/** CEO pay against the prior year, from the proxy's own two figures; null without both. */
export function payChange(total: number, prior: number | null) {
  if (prior === null || prior === 0) return null;
  return {
    ceoTotal: total,
    ceoPriorYearTotal: prior,
    percent: Math.round(((total - prior) / prior) * 1000) / 10,
  };
}

async function proxies(deps: Deps, ticker: string, asOf: string | undefined, fiscalYear?: number) {
  let q = deps.store.db
    .selectFrom('exec_pay')
    .selectAll()
    .where(knownAt(asOfInstant(deps, asOf)))
    .where('ticker', '=', ticker);
  if (fiscalYear !== undefined) q = q.where('fiscal_year', '=', fiscalYear);
  // A proxy whose filing time is not known comes after those of its year that have one, on both engines.
  const rows = await q
    .orderBy('proxy_year', 'desc')
    .orderBy(sql`filed_at IS NULL`)
    .orderBy('filed_at', 'desc')
    .execute();
  return fromFilingsFirst(rows);
}

/** A CEO-pay table's proxy is served only for a fiscal year no proxy read from a filing reports. */
export function fromFilingsFirst<R extends { source_kind: string; fiscal_year: number }>(rows: R[]): R[] {
  const filed = new Set(rows.filter((r) => r.source_kind === 'filing').map((r) => r.fiscal_year));
  return rows.filter((r) => r.source_kind === 'filing' || !filed.has(r.fiscal_year));
}

function meta(deps: Deps, asOf: string | undefined, rows: Selectable<ExecPayTable>[]) {
  const years = rows.map((r) => r.fiscal_year).sort();
  const known = newestKnown(rows);
  return storedMeta('exec-pay', [SEC_EDGAR], {
    readAsOf: readInstant(deps, asOfInstant(deps, asOf)),
    asOf: known?.knownAt ?? null,
    knownFrom: known?.knownFrom ?? null,
    newestPeriod: years.length ? String(years.at(-1)) : null,
    coverage: rows.length
      ? { proxies: rows.length, firstFiscalYear: years[0], lastFiscalYear: years.at(-1) }
      : null,
  });
}

export async function listProxies(
  deps: Deps,
  { params, query }: OperationInput<{ asOf?: string }, { symbol: string }>,
): Promise<EnvelopeValue<unknown>> {
  const company = await companyOrNotFound(deps.store.db, params.symbol);
  const rows = await proxies(deps, company.ticker, query.asOf);
  return {
    data: { company, proxies: rows.map((r) => toProxy(r, company)) },
    meta: meta(deps, query.asOf, rows),
  };
}

export async function proxiesForYear(
  deps: Deps,
  { params, query }: OperationInput<{ asOf?: string }, { symbol: string; year: number }>,
): Promise<EnvelopeValue<unknown>> {
  const company = await companyOrNotFound(deps.store.db, params.symbol);
  const year = params.year;
  const rows = await proxies(deps, company.ticker, query.asOf, year);
  const latest = rows[0];
  return {
    data: {
      company,
      year,
      proxies: rows.map((r) => toProxy(r, company)),
      ceoPayChange: latest ? payChange(Number(latest.ceo_total), latest.ceo_prior_year_total) : null,
    },
    meta: meta(deps, query.asOf, rows),
  };
}
