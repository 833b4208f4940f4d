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

export interface DatasetVersionsTable {
  dataset: string;
  version: number;
  updated_at: string;
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

export interface RegistrantsTable extends RevisionColumns, PointInTimeColumns {
  row_id: Generated<number>;
  ticker: string;
  /** ten digits */
  cik: string;
  name: string;
  /** position in company_tickers.json */
  rank: number;
  /** 0 from the snapshot that no longer names the ticker */
  listed: number;
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

/** What one of SEC's exchange files said of a listing (null: no exchange, or no longer named). */
export interface MarketExchangeSnapshotsTable {
  symbol: string;
  snapshot_at: string;
  cik: string | null;
  exchange_code: string | null;
  source: string;
}

/** A listing's name as the operator stated it where its price files carry none. */
export interface MarketActionsTable {
  symbol: string;
  /** The ex-date, YYYY-MM-DD. */
  date: string;
  type: 'dividend' | 'split' | 'capitalGain';
  /** Per share, main units, in the shares of the bars held (dividends and capital gains). */
  amount: number | null;
  numerator: number | null;
  denominator: number | null;
  known_at: string;
  superseded_at: string | null;
  source: string;
  loaded_at: string;
}

export interface MarketActionSpansTable {
  symbol: string;
  type: 'dividend' | 'split' | 'capitalGain';
  start: string;
  end: string;
  known_at: string;
  source: string;
}

export interface MarketDisputesTable {
  symbol: string;
  date: string;
  /** The upstream the served close came from, and the one that answered otherwise. */
  source: string;
  other: string;
  close: number;
  other_close: number;
  found_at: string;
}

export interface MarketListingsTable {
  symbol: string;
  name: string;
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

/** A listing's daily bars of one year, packed (src/market/bars/blocks.ts); each version kept. */
export interface MarketBarBlocksTable {
  symbol: string;
  year: number;
  bars: Buffer;
  /** When this version became known: the load's time, or the publication time given for its file. */
  known_at: string;
  /** When a later version replaced it; null while it is current. */
  superseded_at: string | null;
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
  /** the value and filing date of the earliest filing that reported the period (a later one may restate it) */
  /** JSON: each value the period was reported at and its first filing, oldest first; null if never restated */
  reports: string | null;
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

/**
 * When a revision became known (its publication time, else its load time) and when a later one superseded
 * it: a record as known at T is its revision with known_at <= T < superseded_at (or none yet).
 */
export interface PointInTimeColumns {
  known_at: Generated<string>;
  /** Where known_at came from (revisions.ts KnownFrom); null on revisions written before it was kept. */
  known_from: Generated<string | null>;
  superseded_at: Generated<string | null>;
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

/** A bulk file an account was charged for, by the file's name (dataset, version, asOf, format). */
export interface BulkDownloadsTable {
  account_id: string;
  file: string;
  charged_at: string;
  /** 0 while the claiming download's charge is decided, 1 once taken. */
  paid: number;
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
  dataset_versions: DatasetVersionsTable;
  settings: SettingsTable;
  companies: CompaniesTable;
  source_files: SourceFilesTable;
  market_quotes: MarketQuotesTable;
  market_bar_blocks: MarketBarBlocksTable;
  market_statements: MarketStatementsTable;
  market_facts: MarketFactsTable;
  market_exchange_snapshots: MarketExchangeSnapshotsTable;
  market_listings: MarketListingsTable;
  market_disputes: MarketDisputesTable;
  market_actions: MarketActionsTable;
  market_action_spans: MarketActionSpansTable;
  market_cache: MarketCacheTable;
  bulk_downloads: BulkDownloadsTable;
  console_sessions: ConsoleSessionsTable;
  account_activity: AccountActivityTable;
  stripe_events: StripeEventsTable;
}
