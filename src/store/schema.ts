// Table types for Kysely. Timestamps are ISO 8601 text (UTC, milliseconds) on both engines;
// flags are 0/1 integers; credits are integers.
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  email: string;
  email_confirmed: number;
  plan: string;
  plan_ends_at: string | null;
  market_plan: string;
  contract_credits_per_month: number | null;
  contract_credits_per_minute: number | null;
  contract_max_keys: number | null;
  period_start: string;
  period_end: string;
  allowance: number;
  balance: number;
  period_charged: number;
  period_refunded: number;
  period_adjusted: number;
  created_at: string;
  updated_at: string;
  /** scrypt hash of the console password; null until one is set. */
  password_hash: string | null;
  /** 1: an operator, who sees the console's operator view. */
  admin: number;
  /** Stripe's customer id (cus_…), learnt from the first completed Checkout. */
  stripe_customer: string | null;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  api: string;
  access: string | null;
  prefix: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface LedgerTable {
  id: Generated<number>;
  account_id: string;
  period_start: string;
  /** grant | charge | refund | adjustment */
  kind: string;
  /** Signed credits: negative for a charge. */
  amount: number;
  balance_after: number;
  request_id: string | null;
  key_id: string | null;
  operation: string | null;
  created_at: string;
  /** Why an operator adjusted the balance. */
  reason?: string | null;
}

export interface UsageTable {
  account_id: string;
  period_start: string;
  dataset: string;
  call_type: string;
  calls: number;
  credits: number;
}

export interface UnitUsageTable {
  account_id: string;
  key_id: string;
  day: string;
  /** market (the HTTP API) or mcp */
  door: string;
  calls: number;
  units: number;
}

export interface FetchesTable {
  url: string;
  etag: string | null;
  last_modified: string | null;
  /** SHA-256 of the bytes last received. */
  checksum: string;
  fetched_at: string;
}

export interface JobsTable {
  name: string;
  next_at: string;
  /** Runs since the last one that found something new (the retry backoff's exponent). */
  attempt: number;
  holder: string | null;
  lease_until: string | null;
  last_run_at: string | null;
  /** new | nothing_new | failed */
  last_outcome: string | null;
  /** When a run last found something new. */
  last_new_at: string | null;
}

export interface CotRecordsTable {
  id: Generated<number>;
  report_family: string;
  contract_code: string;
  report_date: string;
  market_name: string;
  exchange_code: string;
  commodity_code: string;
  open_interest: number;
  /** JSON: {traderClass: {long, short, spreading}} */
  positions: string;
  content_hash: string;
  revision: number;
  is_current: number;
  source: string;
  loaded_at: string;
}

export interface EnergySeriesTable extends RevisionColumns {
  id: Generated<number>;
  series_id: string;
  /** wpsr | wngsr */
  report: string;
  tab: string;
  label: string;
  unit: string;
  /** Order of the series on the board. */
  position: number;
}

export interface EnergyObservationsTable extends RevisionColumns {
  id: Generated<number>;
  series_id: string;
  week_ending: string;
  value: number;
}

export interface EnergyReportsTable extends RevisionColumns {
  id: Generated<number>;
  report: string;
  week_ending: string;
  released_at: string | null;
  release_holiday: number;
  next_week_ending: string | null;
  next_release_at: string | null;
  next_release_holiday: number;
}

export interface CpiItemsTable extends RevisionColumns {
  id: Generated<number>;
  item_code: string;
  label: string;
  depth: number;
  parent: string | null;
  sort_sequence: number;
}

export interface CpiIndexTable extends RevisionColumns {
  id: Generated<number>;
  item_code: string;
  /** S seasonally adjusted, U not */
  seasonal: string;
  /** YYYY-MM */
  period: string;
  value: number;
}

export interface CpiWeightsTable extends RevisionColumns {
  id: Generated<number>;
  item_code: string;
  /** YYYY-MM of the December the relative importance refers to */
  weights_period: string;
  /** percent of all items */
  weight: number;
}

export interface CpiReleasesTable extends RevisionColumns {
  id: Generated<number>;
  period: string;
  released_at: string | null;
  next_period: string | null;
  next_release_at: string | null;
}

export interface DatasetVersionsTable {
  dataset: string;
  version: number;
  updated_at: string;
}

export interface AwardsTable {
  row_id: Generated<number>;
  /** sha1 of source and source award id: 40 lowercase hex */
  id: string;
  /** sha1 of the record's content */
  revision_id: string;
  source: string;
  source_award_id: string;
  jurisdiction: string;
  award_type: string;
  title: string;
  award_date: string;
  fiscal_year: number;
  currency: string;
  /** exact decimal text */
  obligated_amount: string;
  /** fixed-width text whose order is the order of nonnegative amounts; negative amounts sort first */
  amount_key: string;
  /** the amount in millionths, where it fits in 53 bits */
  amount_micros: number | null;
  recipient_name: string;
  agency_name: string;
  sector: string | null;
  ticker: string | null;
  parent_id: string | null;
  source_url: string;
  observed_at: string;
  entity: string | null;
  revenue_comparison: string | null;
  revision: number;
  is_current: number;
  loaded_at: string;
  load_source: string;
  /** JSON: what the source says beyond the common fields (amount kind, face value, sub-agency, …) */
  details: Generated<string | null>;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface CompaniesTable {
  ticker: string;
  cik: string | null;
  name: string;
  short_name: string;
  updated_at: string;
}

export interface EventsTable extends RevisionColumns {
  row_id: Generated<number>;
  /** accession number */
  id: string;
  ticker: string;
  form: string;
  filed_at: string;
  filing_date: string;
  doc_url: string;
  /** JSON array of item codes */
  items: string;
  headline: string | null;
  summary: string | null;
  /** JSON array */
  people: string;
}

export interface ExecPayTable extends RevisionColumns {
  row_id: Generated<number>;
  id: string;
  ticker: string;
  proxy_year: number;
  fiscal_year: number;
  fiscal_year_label: string;
  filed_at: string;
  meeting_date: string | null;
  ceo_name: string;
  ceo_title: string;
  ceo_total: number;
  ceo_prior_year_total: number | null;
  pay_ratio: number | null;
  median_employee_pay: number | null;
  /** filing (read from the proxy itself) or ceo-pay-table (a secondary compilation) */
  source_kind: Generated<string>;
}

export interface RegistrantsTable extends RevisionColumns {
  row_id: Generated<number>;
  ticker: string;
  /** ten digits */
  cik: string;
  name: string;
  /** position in company_tickers.json */
  rank: number;
}

export interface KpiFactsTable extends RevisionColumns {
  row_id: Generated<number>;
  /** sha1 of the fact key and revision */
  id: string;
  /** what stays the same across revisions: kind, symbol, metric, period, basis, dimensions */
  fact_key: string;
  /** kpi | guidance */
  kind: string;
  symbol: string;
  metric_id: string;
  series_key: string;
  period_start: string | null;
  period_end: string;
  period_kind: string;
  fiscal_year: number;
  fiscal_quarter: number | null;
  period_label: string;
  value: number;
  /** a guided range's ends; null for a point or approximate figure */
  low: Generated<number | null>;
  high: Generated<number | null>;
  unit: string;
  currency: string | null;
  basis: string;
  /** JSON object */
  dimensions: string;
  confidence: number;
  /** when the fact became known (its document's publication time) */
  as_of: string;
  supersedes_id: string | null;
  conflict: number;
  /** JSON array */
  evidence: string;
}

export interface KpiMetricsTable {
  id: string;
  name: string;
  sector: string;
  unit: string;
  definition: string;
  /** JSON object */
  aliases: string;
  favorable: string;
  updated_at: string;
}

export interface SourceFilesTable {
  id: Generated<number>;
  dataset: string;
  name: string;
  checksum: string;
  size: number;
  rows: number;
  first_date: string | null;
  last_date: string | null;
  inserted: number;
  revised: number;
  unchanged: number;
  loaded_at: string;
}

export interface CpiSeriesTable extends RevisionColumns {
  id: Generated<number>;
  series_id: string;
  item_code: string;
  seasonal: string;
  title: string;
  first_period: string | null;
  last_period: string | null;
}

/** Fields recorded without a quote; they add to the symbol's quote at read time. */
export interface MarketFactsTable {
  symbol: string;
  /** JSON object: field id -> number or text. */
  fields: string;
  as_of: string;
  content_hash: string;
  source: string;
  loaded_at: string;
}

export interface MarketQuotesTable {
  /** provider symbol, e.g. BARC.L */
  symbol: string;
  name: string;
  /** main units: GBP, not GBp */
  currency: string;
  exchange: string;
  asset_type: string;
  /** JSON: field id -> number or text, prices in main units */
  fields: string;
  as_of: string;
  content_hash: string;
  source: string;
  loaded_at: string;
}

export interface MarketBarsTable {
  symbol: string;
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
  source: string;
  loaded_at: string;
}

export interface MarketStatementsTable {
  symbol: string;
  /** field id of the dictionary */
  field: string;
  /** duration (income, cash flow) or instant (balance sheet) */
  kind: string;
  /** '' for an instant */
  start: string;
  end: string;
  value: number;
  currency: string;
  /** fiscal period of the filing that reported it: Q1, Q2, Q3, FY */
  fp: string;
  form: string;
  filed: string;
  /** the XBRL concept it was read from ('' where the source names none) */
  concept: Generated<string>;
  source: string;
  loaded_at: string;
}

/** Columns every revisioned dataset table has. */
export interface RevisionColumns {
  content_hash: string;
  revision: number;
  is_current: number;
  source: string;
  loaded_at: string;
}

export interface ConsoleSessionsTable {
  /** SHA-256 of the session token (hex); the token itself lives only in the browser's cookie. */
  id: string;
  account_id: string;
  address: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface AccountActivityTable {
  id: Generated<number>;
  account_id: string;
  /** Who acted: an account's email, "operator (email)", "cli" or "payment processor". */
  actor: string;
  action: string;
  detail: string | null;
  address: string | null;
  created_at: string;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  account_id: string | null;
  outcome: string;
  received_at: string;
}

export interface MarketCacheTable {
  key: string;
  value: string;
  fetched_at: string;
  fresh_until: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger: LedgerTable;
  usage: UsageTable;
  unit_usage: UnitUsageTable;
  fetches: FetchesTable;
  jobs: JobsTable;
  registrants: RegistrantsTable;
  cot_records: CotRecordsTable;
  energy_series: EnergySeriesTable;
  energy_observations: EnergyObservationsTable;
  energy_reports: EnergyReportsTable;
  cpi_items: CpiItemsTable;
  cpi_index: CpiIndexTable;
  cpi_weights: CpiWeightsTable;
  cpi_releases: CpiReleasesTable;
  dataset_versions: DatasetVersionsTable;
  awards: AwardsTable;
  settings: SettingsTable;
  companies: CompaniesTable;
  events: EventsTable;
  exec_pay: ExecPayTable;
  kpi_facts: KpiFactsTable;
  kpi_metrics: KpiMetricsTable;
  source_files: SourceFilesTable;
  cpi_series: CpiSeriesTable;
  market_quotes: MarketQuotesTable;
  market_bars: MarketBarsTable;
  market_statements: MarketStatementsTable;
  market_facts: MarketFactsTable;
  market_cache: MarketCacheTable;
  console_sessions: ConsoleSessionsTable;
  account_activity: AccountActivityTable;
  stripe_events: StripeEventsTable;
}
