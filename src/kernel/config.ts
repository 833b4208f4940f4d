// The service's configuration: read once from the environment at start-up. Nothing else reads process.env.
import { isIP } from 'node:net';
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; the embedded SQLite store in dataDir when absent. */
  databaseUrl: string | null;
  /** Redis connection string; in-process counters when absent. */
  redisUrl: string | null;
  dataApiEnabled: boolean;
  /** Proxy addresses whose X-Forwarded-For is believed; empty: the socket address is the client. */
  trustProxy: string[];
  logLevel: LogLevel;
  /** The most text one MCP tool result carries; a longer answer comes in pages. */
  mcpResultBytes: number;
  /** The key `quarry mcp` serves its stdio client with. */
  apiKey: string | null;
  /** Slow clients: time for a request's headers, for the whole request, and for an idle kept-alive connection. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Connections held at once; more are refused. */
  maxConnections: number;
  /** Bearer token for GET /metrics; without it /metrics answers only on a loopback HOST. */
  metricsToken: string | null;
  /** The operator's email, sent in the User-Agent of every request to an agency (BLS refuses anonymous clients). */
  contact: string | null;
  /** Base URLs of the agencies' hosts by id: configuration, so that a local server can stand in for them. */
  agencies: Record<string, string>;
  /**
   * SEC EDGAR's hosts (www.sec.gov: archives and company_tickers.json; data.sec.gov: submissions and company
   * facts); QUARRY_SEC_URL stands in for both.
   */
  sec: { www: string; data: string };
  /** Tickers whose EDGAR filings the collector keeps current (QUARRY_SEC_TICKERS, comma-separated). */
  secTickers: string[];
  /** How long one download may take before it is given up. */
  fetchTimeoutMs: number;
  /** The collector: how long a job's lease lasts (renewed while it runs), and how often due jobs are looked for. */
  collectLeaseMs: number;
  collectPollMs: number;
  /** The console's address as users reach it (links in mail; an https address marks cookies Secure). */
  publicUrl: string | null;
  /** Where the bulk files of each dataset version are kept (shared by every instance of a deployment). */
  bulkDir: string;
  /** How long a signed bulk download link (the MCP tool datasets.bulk_link) stays valid. */
  bulkLinkSeconds: number;
  /** Outgoing mail server (smtp: or smtps: URL); mail goes to <dataDir>/outbox without one. */
  smtpUrl: string | null;
  /** The From address of the console's mail. */
  mailFrom: string;
  /** Stripe: the webhook signing secret (whsec_…) that plan events are checked against. */
  stripeWebhookSecret: string | null;
  /** Stripe: the secret API key the console sends customers to Checkout with, and its Checkout prices. */
  stripeSecretKey: string | null;
  stripePrices: Partial<Record<'basic' | 'desk', string>>;
  /** Stripe's API host (QUARRY_STRIPE_URL): configuration, so that a local server can stand in for it. */
  stripeUrl: string;
  /** Market data: the live upstream behind the stored data (QUARRY_MARKET_UPSTREAM), and how it is paced. */
  market: MarketConfig;
}

export interface MarketConfig {
  /** `yahoo`: the live upstreams fill what the store does not hold; `none`: stored data only. */
  upstream: 'yahoo' | 'none';
  /**
   * The live upstreams asked, in order (QUARRY_MARKET_UPSTREAMS; by default every vendor whose key is set, then
   * Yahoo), each with its key, host and allowance.
   */
  upstreams: readonly UpstreamConfig[];
  /**
   * The second opinion (QUARRY_SECOND_OPINION_DAYS): how many of the newest daily closes a fetch brings are
   * asked of the next upstream that serves bars, to find disagreements; 0 turns it off.
   */
  secondOpinionDays: number;
  /** OpenFIGI's API (QUARRY_OPENFIGI_URL); `none` turns identifiers off. */
  openFigiUrl: string | null;
  /** OPENFIGI_API_KEY: a hundred jobs a request and 25 requests every six seconds instead of ten and a minute. */
  openFigiKey: string | null;
  /** How long /v1/quotes, /v1/data and /v1/history wait before answering `timeout` on what is not ready. */
  answerWithinMs: number;
  /** How long one upstream call may run before it is abandoned (it goes on after the answer's deadline). */
  upstreamTimeoutMs: number;
  /** How long a quote stays fresh while its market trades, and while it is closed. */
  quoteFreshMs: number;
  quoteClosedFreshMs: number;
  /** Upstream calls in flight at once, per process. */
  upstreamConcurrency: number;
}

/**
 * A market upstream as its folder declares it: its name, the variable of the operator's key (none: keyless),
 * its host and the variable that names a stand-in for it, and its allowance (calls a minute and a day, as the
 * operator's plan with the vendor says: QUARRY_<NAME>_PER_MINUTE and _PER_DAY).
 */
export interface UpstreamSettings {
  name: string;
  keyVariable: string | null;
  urlVariable: string;
  url: string;
  perMinute: number;
  perDay: number;
}

/** An upstream as configured: its key (null: keyless), host and allowance. */
export interface UpstreamConfig {
  name: string;
  key: string | null;
  url: string;
  perMinute: number;
  perDay: number;
}

/**
 * An agency's host, as the dataset that fetches from it declares it: its real address, and the variable that
 * names a stand-in for it (a mirror, or a local server replaying its files).
 */
export interface AgencyHost {
  id: string;
  variable: string;
  url: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function secHosts(standIn: string | null | undefined): { www: string; data: string } {
  if (standIn) {
    const base = standIn.replace(/\/+$/, '');
    return { www: base, data: base };
  }
  return { www: 'https://www.sec.gov', data: 'https://data.sec.gov' };
}

function tickerList(env: Env, name: string): string[] {
  const value = text(env, name);
  if (!value) return [];
  const tickers = value.split(',').map((t) => t.trim().toUpperCase());
  const bad = tickers.find((t) => !/^[A-Z0-9.-]{1,20}$/.test(t));
  if (bad !== undefined)
    throw new ConfigError(name, `"${bad}" is not a ticker (comma-separated tickers expected)`);
  return tickers;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(name, `expected a port number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function bool(env: Env, name: string): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined || raw === 'false' || raw === '0' || raw === 'no' || raw === 'off') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes' || raw === 'on') return true;
  throw new ConfigError(name, `expected true or false, got "${env[name]}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = text(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got "${parsed.protocol}"`);
  }
  return raw;
}

function email(env: Env, name: string): string | null {
  const raw = text(env, name);
  if (raw === undefined) return null;
  if (!/^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(raw)) {
    throw new ConfigError(name, `expected an email address, got "${raw}"`);
  }
  return raw;
}

function proxies(env: Env, name: string): string[] {
  const raw = text(env, name);
  if (raw === undefined) return [];
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefixOk =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        name,
        `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
      );
    }
  }
  return entries;
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function logLevel(env: Env, name: string): LogLevel {
  const raw = text(env, name)?.toLowerCase() ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as LogLevel;
}

function prefixed(env: Env, name: string, prefix: string): string | null {
  const raw = text(env, name);
  if (raw === undefined) return null;
  if (!raw.startsWith(prefix)) throw new ConfigError(name, `expected a value starting with ${prefix}`);
  return raw;
}

function optional<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null ? {} : ({ [key]: value } as Record<K, string>);
}

/**
 * The base URL configured for an agency host. A host the configuration was not given is an error rather than
 * the real address: a process (or a test) reaches an agency only where its configuration says so.
 */
export function agencyUrl(config: Pick<Config, 'agencies'>, host: AgencyHost): string {
  const url = config.agencies[host.id];
  if (url === undefined) throw new ConfigError(host.variable, `the agency host ${host.id} is not configured`);
  return url;
}

/** The service's address as its users reach it: QUARRY_PUBLIC_URL, or the address the server listens on. */
export function serviceUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  const { publicUrl, host, port } = config;
  return publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The configuration `env` gives, with the base URL of each of the agency hosts the datasets declare. */
export function readConfig(
  env: Env,
  hosts: readonly AgencyHost[],
  upstreams: readonly UpstreamSettings[] = [],
): Config {
  return {
    port: port(env, 'PORT', 8080),
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(text(env, 'QUARRY_DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    dataApiEnabled: bool(env, 'DATA_API_ENABLED'),
    trustProxy: proxies(env, 'TRUST_PROXY'),
    logLevel: logLevel(env, 'LOG_LEVEL'),
    apiKey: text(env, 'QUARRY_API_KEY') ?? null,
    headersTimeoutMs: wholeNumber(env, 'QUARRY_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: wholeNumber(env, 'QUARRY_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    keepAliveTimeoutMs: wholeNumber(env, 'QUARRY_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnections: wholeNumber(env, 'QUARRY_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    metricsToken: text(env, 'QUARRY_METRICS_TOKEN') ?? null,
    mcpResultBytes: wholeNumber(env, 'QUARRY_MCP_RESULT_BYTES', 80_000, 2_000, 10_000_000),
    contact: email(env, 'QUARRY_CONTACT'),
    agencies: Object.fromEntries(
      hosts.map((host) => [
        host.id,
        (url(env, host.variable, ['https:', 'http:']) ?? host.url).replace(/\/+$/, ''),
      ]),
    ),
    sec: secHosts(url(env, 'QUARRY_SEC_URL', ['https:', 'http:'])),
    secTickers: tickerList(env, 'QUARRY_SEC_TICKERS'),
    fetchTimeoutMs: wholeNumber(env, 'QUARRY_FETCH_TIMEOUT_MS', 120_000, 100, 3_600_000),
    collectLeaseMs: wholeNumber(env, 'QUARRY_COLLECT_LEASE_MS', 600_000, 300, 86_400_000),
    collectPollMs: wholeNumber(env, 'QUARRY_COLLECT_POLL_MS', 30_000, 50, 3_600_000),
    publicUrl: url(env, 'QUARRY_PUBLIC_URL', ['https:', 'http:'])?.replace(/\/+$/, '') ?? null,
    bulkDir: path.resolve(
      text(env, 'QUARRY_BULK_DIR') ?? path.join(text(env, 'QUARRY_DATA_DIR') ?? './data', 'bulk'),
    ),
    bulkLinkSeconds: wholeNumber(env, 'QUARRY_BULK_LINK_SECONDS', 900, 10, 86_400),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: email(env, 'QUARRY_MAIL_FROM') ?? 'quarry@localhost.localdomain',
    stripeWebhookSecret: prefixed(env, 'STRIPE_WEBHOOK_SECRET', 'whsec_'),
    stripeSecretKey: prefixed(env, 'STRIPE_SECRET_KEY', 'sk_'),
    stripePrices: {
      ...optional('basic', prefixed(env, 'STRIPE_PRICE_BASIC', 'price_')),
      ...optional('desk', prefixed(env, 'STRIPE_PRICE_DESK', 'price_')),
    },
    market: marketConfig(env, upstreams),
    stripeUrl: (url(env, 'QUARRY_STRIPE_URL', ['https:', 'http:']) ?? 'https://api.stripe.com').replace(
      /\/+$/,
      '',
    ),
  };
}

function marketConfig(env: Env, declared: readonly UpstreamSettings[]): MarketConfig {
  const upstream = text(env, 'QUARRY_MARKET_UPSTREAM')?.toLowerCase() ?? 'yahoo';
  if (upstream !== 'yahoo' && upstream !== 'none')
    throw new ConfigError('QUARRY_MARKET_UPSTREAM', `expected yahoo or none, got "${upstream}"`);
  return {
    upstream,
    upstreams: upstreamsConfig(env, declared),
    secondOpinionDays: wholeNumber(env, 'QUARRY_SECOND_OPINION_DAYS', 0, 0, 260),
    openFigiUrl:
      text(env, 'QUARRY_OPENFIGI_URL')?.toLowerCase() === 'none'
        ? null
        : (url(env, 'QUARRY_OPENFIGI_URL', ['https:', 'http:'])?.replace(/\/+$/, '') ??
          'https://api.openfigi.com'),
    openFigiKey: text(env, 'OPENFIGI_API_KEY') ?? null,
    answerWithinMs: wholeNumber(env, 'QUARRY_MARKET_DEADLINE_MS', 12_000, 50, 120_000),
    upstreamTimeoutMs: wholeNumber(env, 'QUARRY_UPSTREAM_TIMEOUT_MS', 20_000, 50, 600_000),
    quoteFreshMs: wholeNumber(env, 'QUARRY_QUOTE_FRESH_MS', 15_000, 0, 86_400_000),
    quoteClosedFreshMs: wholeNumber(env, 'QUARRY_QUOTE_CLOSED_FRESH_MS', 900_000, 0, 7 * 86_400_000),
    upstreamConcurrency: wholeNumber(env, 'QUARRY_UPSTREAM_CONCURRENCY', 12, 1, 256),
  };
}

/**
 * The upstreams in the order QUARRY_MARKET_UPSTREAMS names them (by default those with a key, in the order
 * they are declared, then the keyless ones); one named without its key, or not declared, is refused.
 */
function upstreamsConfig(env: Env, declared: readonly UpstreamSettings[]): UpstreamConfig[] {
  const variable = 'QUARRY_MARKET_UPSTREAMS';
  const configured = declared.map((d): UpstreamConfig => {
    const prefix = `QUARRY_${d.name.toUpperCase()}`;
    return {
      name: d.name,
      key: d.keyVariable ? (text(env, d.keyVariable) ?? null) : null,
      url: (url(env, d.urlVariable, ['https:', 'http:']) ?? d.url).replace(/\/+$/, ''),
      perMinute: wholeNumber(env, `${prefix}_PER_MINUTE`, d.perMinute, 1, 1_000_000),
      perDay: wholeNumber(env, `${prefix}_PER_DAY`, d.perDay, 1, 1_000_000_000),
    };
  });
  const listed = text(env, variable);
  if (listed === undefined) {
    const keyed = configured.filter((c, i) => declared[i]?.keyVariable && c.key);
    return [...keyed, ...configured.filter((_, i) => !declared[i]?.keyVariable)];
  }
  const byName = new Map(configured.map((c) => [c.name, c]));
  const names = listed
    .toLowerCase()
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.map((name) => {
    const found = byName.get(name);
    if (!found)
      throw new ConfigError(
        variable,
        `"${name}" is not an upstream; the upstreams are ${[...byName.keys()].join(', ')}`,
      );
    const keyVariable = declared.find((d) => d.name === name)?.keyVariable;
    if (keyVariable && !found.key)
      throw new ConfigError(variable, `${name} is listed, and ${keyVariable} is not set`);
    return found;
  });
}
