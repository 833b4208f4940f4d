// Config: read once from the environment; a bad value stops the process with a message naming the variable.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/kernel/config.js';
import { loadConfig } from '../../src/runtime/config.js';

describe('config', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: null,
      redisUrl: null,
      dataApiEnabled: false,
      trustProxy: [],
      logLevel: 'info',
      mcpResultBytes: 80_000,
      apiKey: null,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 10_000,
      metricsToken: null,
      contact: null,
      agencies: {
        usaspending: 'https://api.usaspending.gov',
        bls: 'https://download.bls.gov',
        eia: 'https://ir.eia.gov',
        cftc: 'https://www.cftc.gov',
        treasury: 'https://home.treasury.gov',
      },
      sec: { www: 'https://www.sec.gov', data: 'https://data.sec.gov' },
      secTickers: [],
      fetchTimeoutMs: 120_000,
      collectLeaseMs: 600_000,
      collectPollMs: 30_000,
      publicUrl: null,
      smtpUrl: null,
      mailFrom: 'quarry@localhost.localdomain',
      stripeWebhookSecret: null,
      stripeSecretKey: null,
      stripePrices: {},
      stripeUrl: 'https://api.stripe.com',
      market: {
        upstream: 'yahoo',
        openFigiUrl: 'https://api.openfigi.com',
        openFigiKey: null,
        answerWithinMs: 12_000,
        upstreamTimeoutMs: 20_000,
        quoteFreshMs: 15_000,
        quoteClosedFreshMs: 900_000,
        upstreamConcurrency: 12,
        secondOpinionDays: 0,
        // Keyless: Yahoo alone, at its own hosts.
        upstreams: [
          {
            name: 'yahoo',
            key: null,
            url: 'https://finance.yahoo.com',
            perMinute: 1_000_000,
            perDay: 1_000_000_000,
          },
        ],
      },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('QUARRY_OPENFIGI_URL=none turns identifiers off', () => {
    expect(loadConfig({ QUARRY_OPENFIGI_URL: 'none' }).market.openFigiUrl).toBeNull();
    expect(() => loadConfig({ QUARRY_OPENFIGI_URL: 'ftp://figi' })).toThrowError(ConfigError);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      QUARRY_DATA_DIR: '/tmp/q',
      DATABASE_URL: 'postgres://u@h:5432/d',
      REDIS_URL: 'redis://h:6379',
      DATA_API_ENABLED: 'true',
      TRUST_PROXY: 'loopback, 10.0.0.0/8,::1',
      LOG_LEVEL: 'warn',
      QUARRY_MCP_RESULT_BYTES: '50000',
      QUARRY_API_KEY: 'svc_mcp_abc',
      QUARRY_HEADERS_TIMEOUT_MS: '2000',
      QUARRY_REQUEST_TIMEOUT_MS: '9000',
      QUARRY_KEEP_ALIVE_TIMEOUT_MS: '700',
      QUARRY_MAX_CONNECTIONS: '50',
      QUARRY_METRICS_TOKEN: 'scrape-me',
      QUARRY_CONTACT: 'ops@example.com',
      QUARRY_CFTC_URL: 'http://127.0.0.1:9001/',
      QUARRY_EIA_URL: 'https://eia.example',
      QUARRY_TREASURY_URL: 'https://treasury.example',
      QUARRY_BLS_URL: 'http://bls.example/mirror',
      QUARRY_SEC_URL: 'http://edgar.example/',
      QUARRY_SEC_TICKERS: 'aapl,BRK-B',
      QUARRY_USASPENDING_URL: 'http://usaspending.example/',
      QUARRY_FETCH_TIMEOUT_MS: '5000',
      QUARRY_COLLECT_LEASE_MS: '1500',
      QUARRY_COLLECT_POLL_MS: '200',
      QUARRY_PUBLIC_URL: 'https://console.example/',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      QUARRY_BULK_DIR: '/srv/quarry-bulk',
      QUARRY_BULK_LINK_SECONDS: '120',
      QUARRY_MAIL_FROM: 'accounts@console.example',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_PRICE_BASIC: 'price_basic1',
      STRIPE_PRICE_DESK: 'price_desk1',
      QUARRY_STRIPE_URL: 'http://127.0.0.1:12111/',
      QUARRY_MARKET_UPSTREAM: 'None',
      QUARRY_YAHOO_URL: 'http://127.0.0.1:12112/',
      QUARRY_MARKET_DEADLINE_MS: '3000',
      QUARRY_UPSTREAM_TIMEOUT_MS: '25000',
      QUARRY_QUOTE_FRESH_MS: '5000',
      QUARRY_QUOTE_CLOSED_FRESH_MS: '60000',
      QUARRY_UPSTREAM_CONCURRENCY: '4',
      QUARRY_OPENFIGI_URL: 'http://127.0.0.1:12113/',
      OPENFIGI_API_KEY: 'figi-key',
      QUARRY_MARKET_UPSTREAMS: 'Tiingo, yahoo',
      TIINGO_API_KEY: 'tiingo-key',
      QUARRY_TIINGO_URL: 'http://127.0.0.1:12114/',
      QUARRY_TIINGO_PER_MINUTE: '10',
      QUARRY_TIINGO_PER_DAY: '500',
      QUARRY_SECOND_OPINION_DAYS: '5',
    });
    expect(config).toEqual({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/q',
      databaseUrl: 'postgres://u@h:5432/d',
      redisUrl: 'redis://h:6379',
      dataApiEnabled: true,
      trustProxy: ['loopback', '10.0.0.0/8', '::1'],
      logLevel: 'warn',
      mcpResultBytes: 50_000,
      apiKey: 'svc_mcp_abc',
      headersTimeoutMs: 2000,
      requestTimeoutMs: 9000,
      keepAliveTimeoutMs: 700,
      maxConnections: 50,
      metricsToken: 'scrape-me',
      contact: 'ops@example.com',
      agencies: {
        cftc: 'http://127.0.0.1:9001',
        eia: 'https://eia.example',
        bls: 'http://bls.example/mirror',
        usaspending: 'http://usaspending.example',
        treasury: 'https://treasury.example',
      },
      sec: { www: 'http://edgar.example', data: 'http://edgar.example' },
      secTickers: ['AAPL', 'BRK-B'],
      fetchTimeoutMs: 5000,
      bulkDir: '/srv/quarry-bulk',
      bulkLinkSeconds: 120,
      collectLeaseMs: 1500,
      collectPollMs: 200,
      publicUrl: 'https://console.example',
      smtpUrl: 'smtps://user:pass@mail.example:465',
      mailFrom: 'accounts@console.example',
      stripeWebhookSecret: 'whsec_abc',
      stripeSecretKey: 'sk_live_abc',
      stripePrices: { basic: 'price_basic1', desk: 'price_desk1' },
      stripeUrl: 'http://127.0.0.1:12111',
      market: {
        upstream: 'none',
        openFigiUrl: 'http://127.0.0.1:12113',
        openFigiKey: 'figi-key',
        answerWithinMs: 3000,
        upstreamTimeoutMs: 25_000,
        quoteFreshMs: 5000,
        quoteClosedFreshMs: 60_000,
        upstreamConcurrency: 4,
        secondOpinionDays: 5,
        upstreams: [
          { name: 'tiingo', key: 'tiingo-key', url: 'http://127.0.0.1:12114', perMinute: 10, perDay: 500 },
          {
            name: 'yahoo',
            key: null,
            url: 'http://127.0.0.1:12112',
            perMinute: 1_000_000,
            perDay: 1_000_000_000,
          },
        ],
      },
    });
  });

  const bad: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ QUARRY_MARKET_UPSTREAM: 'bloomberg' }, 'QUARRY_MARKET_UPSTREAM'],
    [{ QUARRY_YAHOO_URL: 'ftp://x' }, 'QUARRY_YAHOO_URL'],
    [{ QUARRY_MARKET_DEADLINE_MS: '10' }, 'QUARRY_MARKET_DEADLINE_MS'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ DATA_API_ENABLED: 'maybe' }, 'DATA_API_ENABLED'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/40' }, 'TRUST_PROXY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ QUARRY_MCP_RESULT_BYTES: 'lots' }, 'QUARRY_MCP_RESULT_BYTES'],
    [{ QUARRY_MCP_RESULT_BYTES: '100' }, 'QUARRY_MCP_RESULT_BYTES'],
    [{ QUARRY_HEADERS_TIMEOUT_MS: '10s' }, 'QUARRY_HEADERS_TIMEOUT_MS'],
    [{ QUARRY_MAX_CONNECTIONS: '0' }, 'QUARRY_MAX_CONNECTIONS'],
    [{ QUARRY_CONTACT: 'ops at example' }, 'QUARRY_CONTACT'],
    [{ QUARRY_CFTC_URL: 'ftp://cftc.example' }, 'QUARRY_CFTC_URL'],
    [{ QUARRY_FETCH_TIMEOUT_MS: '1m' }, 'QUARRY_FETCH_TIMEOUT_MS'],
    [{ QUARRY_PUBLIC_URL: 'console.example' }, 'QUARRY_PUBLIC_URL'],
    [{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL'],
    [{ QUARRY_MAIL_FROM: 'accounts' }, 'QUARRY_MAIL_FROM'],
    [{ STRIPE_WEBHOOK_SECRET: 'sk_test_wrong_kind' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_SECRET_KEY: 'pk_test_publishable' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_PRICE_DESK: 'prod_123' }, 'STRIPE_PRICE_DESK'],
  ];
  for (const [env, variable] of bad) {
    it(`refuses ${JSON.stringify(env)} naming ${variable}`, () => {
      expect(() => loadConfig(env)).toThrowError(ConfigError);
      expect(() => loadConfig(env)).toThrowError(new RegExp(`^${variable}: `));
    });
  }

  it('a bad value stops the process with a message naming the variable', () => {
    const run = spawnSync(process.execPath, ['dist/cli/main.js', 'serve'], {
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/PORT: expected a port number/);
    expect(run.stdout).toBe('');
  });
});
