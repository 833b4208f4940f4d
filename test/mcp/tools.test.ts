// The MCP server over real HTTP with the SDK's own client: the tool list and schemas, every market tool on
// stored data (answers equal to the REST routes'), short interest from recorded Yahoo responses, every auth case.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { createKey, revokeKey } from '../../src/accounts/keys.js';
import { OPERATIONS } from '../../src/datasets/registry.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';
import { real } from '../helpers/real-data.js';
import { callTool, connect, initializeRequest, textOf } from './client.js';

const FIXTURES = path.resolve('test/fixtures/market');
const SUMMARIES = real('market/yahoo/quoteSummary');

describe('MCP tools over Streamable HTTP', () => {
  let env: TestEnv;
  let url: string;
  let key: string;
  let client: Client;
  beforeAll(async () => {
    // Monday 10 March 2025, 11:00:05 UTC: London is open, New York not yet. AAPL's recorded quote is of
    // 14 February, its bars end on 28 August 2023, BARC's on 25 August 2023; the short interest settled on
    // 31 January is more than 35 days old.
    env = await testEnv({ clock: () => new Date('2025-03-10T11:00:05Z') });
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
    await loadFile(env.deps, prices, path.join(FIXTURES, 'AAPL.csv'), { ticker: 'AAPL' });
    await loadFile(env.deps, prices, path.join(FIXTURES, 'BARC.L.csv'), { ticker: 'BARC.L' });
    await loadFile(env.deps, prices, path.join(FIXTURES, 'SPX.csv'), { ticker: '^GSPC' });
    await loadFile(env.deps, yahoo, path.join(FIXTURES, 'quote-AAPL.json'));
    for (const symbol of ['AAPL', 'ABBV', 'OCDO.L']) {
      await loadFile(
        env.deps,
        yahoo,
        path.join(SUMMARIES, `quoteSummary-defaultKeyStatistics-${symbol}.json`),
      );
    }
    url = await env.app.listen({ port: 0, host: '127.0.0.1' });
    key = await marketKey(env.deps);
    client = await connect(url, key);
  });
  afterAll(async () => {
    await client?.close();
    await env.close();
  });

  const rest = async (route: string, body: object, withKey = key) => {
    const res = await env.app.inject({ method: 'POST', url: route, headers: bearer(withKey), payload: body });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('lists the eight market tools in a fixed order, each with schemas and readOnlyHint', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'market.quotes',
      'market.data',
      'market.history',
      'market.actions',
      'market.fields',
      'market.short_interest',
      'market.resolve',
      'market.search',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.properties).toHaveProperty('continuation');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const data = tools.find((t) => t.name === 'market.data');
    expect(Object.keys(data?.inputSchema.properties ?? {})).toEqual([
      'tickers',
      'fields',
      'period',
      'asOf',
      'continuation',
    ]);
  });

  it('a gds_ key sees one dataset tool per keyed operation and no market tool', async () => {
    const { key: datasetsKey } = await customer(env.deps);
    const datasets = await connect(url, datasetsKey);
    try {
      const { tools } = await datasets.listTools();
      // One per keyed operation, and the bulk file's link.
      expect(tools).toHaveLength(OPERATIONS.length + 1);
      expect(tools.map((t) => t.name)).toContain('datasets.bulk_link');
      expect(tools.map((t) => t.name)).toContain('datasets.cpi_board');
      expect(tools.map((t) => t.name)).toContain('datasets.cot_contract');
      expect(tools.map((t) => t.name)).toContain('datasets.exec_pay_year');
      expect(tools.some((t) => t.name.startsWith('market.'))).toBe(false);
      const contract = tools.find((t) => t.name === 'datasets.cot_contract');
      expect(contract?.inputSchema.required).toEqual(['contractCode']);
    } finally {
      await datasets.close();
    }
  });

  it('datasets.bulk_link charges the bulk price and gives a link that downloads the file without a key', async () => {
    const { key: datasetsKey } = await customer(env.deps);
    const datasets = await connect(url, datasetsKey);
    try {
      const result = await callTool(datasets, 'datasets.bulk_link', { dataset: 'cot', format: 'ndjson' });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result._meta).toMatchObject({ credits: { cost: 25 } });
      const link = (result.structuredContent as { data: { url: string; rows: number; format: string } }).data;
      expect(link.format).toBe('ndjson');
      const file = await fetch(`${url}${new URL(link.url).pathname}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('x-credits-cost')).toBeNull();
      expect((await file.text()).split('\n').filter(Boolean)).toHaveLength(link.rows);
      const refused = await callTool(datasets, 'datasets.bulk_link', { dataset: 'nope' });
      expect(refused.isError).toBe(true);
    } finally {
      await datasets.close();
    }
  });

  it('market.quotes answers what POST /v1/quotes answers, with a compact table', async () => {
    const args = { tickers: ['AAPL', 'BARC LN Equity', 'NOPE.XX'] };
    const result = await callTool(client, 'market.quotes', args);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await rest('/v1/quotes', args));
    const lines = textOf(result).split('\n');
    // Old quotes are named before the table, with the weekdays their market opened since: New York from 17
    // February to 7 March 2025, London from 28 August 2023 to 10 March 2025.
    expect(lines.slice(0, 2)).toEqual([
      'stale: AAPL, last price 2025-02-14 21:00 UTC; 15 sessions since',
      'stale: BARC LN Equity, last price 2023-08-25 15:30 UTC; 401 sessions since',
    ]);
    expect(lines[2]).toBe(
      'input,status,symbol,name,price,currency,changePercent,previousClose,volume,marketCap,marketState,asOf',
    );
    // The recorded quote: AAPL at 244.6 (regularMarketPrice in quote-AAPL.json).
    expect(lines[3]?.startsWith('AAPL,ok,AAPL,Apple Inc.,244.6,USD,')).toBe(true);
    expect(lines[5]).toMatch(/^NOPE\.XX,error,/);
  });

  it('market.data answers what POST /v1/data answers; a field that does not apply shows as !not_applicable', async () => {
    const args = { tickers: ['AAPL', 'BARC LN Equity'], fields: ['PX_LAST', 'EQY_BETA'] };
    const result = await callTool(client, 'market.data', args);
    expect(result.structuredContent).toEqual(await rest('/v1/data', args));
    const lines = textOf(result).split('\n');
    // AAPL's beta is of its last bar (28 August 2023): New York from 29 August 2023 to 7 March 2025.
    expect(lines.slice(0, 2)).toEqual([
      'stale: AAPL, oldest value 2023-08-28 20:00 UTC; 399 sessions since',
      'stale: BARC LN Equity, oldest value 2023-08-25 15:30 UTC; 401 sessions since',
    ]);
    expect(lines[2]).toBe('input,status,PX_LAST,EQY_BETA');
    expect(lines[4]).toBe('BARC LN Equity,partial,143.979996,!not_applicable');
  });

  it('market.history answers what POST /v1/history answers, a block of rows per ticker', async () => {
    const args = {
      tickers: ['BARC.L', 'BARC LN Equity'],
      fields: ['PX_LAST'],
      start: '2023-08-21',
      end: '2023-08-25',
    };
    const result = await callTool(client, 'market.history', args);
    expect(result.structuredContent).toEqual(await rest('/v1/history', args));
    const text = textOf(result);
    // Each block says where its rows came from: here the demo's price file, over the window's days.
    expect(text).toContain(
      '# BARC LN Equity: ok (BARC:XLON, GBp)\nsource: stored: BARC.L.csv 2023-08-21 to 2023-08-25\ndate,PX_LAST',
    );
    expect(text).toContain('2023-08-25,143.979996');
    expect(text).toContain('2023-08-25,1.43979996');
  });

  it('market.fields searches the dictionary by words, asset type and history', async () => {
    const margins = await callTool(client, 'market.fields', { query: 'margin' });
    const ids = (margins.structuredContent as { fields: { id: string }[] }).fields.map((f) => f.id);
    expect(ids).toEqual(['profitMargin', 'operatingMargin']);
    const history = await callTool(client, 'market.fields', { assetType: 'currency', history: true });
    const served = (history.structuredContent as { fields: { id: string }[] }).fields.map((f) => f.id);
    expect(served).toEqual(['price', 'open', 'high', 'low']);
    const all = await callTool(client, 'market.fields', {});
    const listed = (await env.app.inject({ url: '/v1/fields' })).json();
    expect(all.structuredContent).toEqual(listed);
    expect(textOf(all)).toContain('not served: SHORT_INT (served by the MCP tool market.short_interest)');
  });

  it('market.short_interest: the recorded positions, the change and stale after 35 days', async () => {
    const result = await callTool(client, 'market.short_interest', {
      tickers: ['AAPL', 'ABBV US Equity', 'OCDO.L'],
    });
    const items = (result.structuredContent as { items: Record<string, unknown>[] }).items;
    // defaultKeyStatistics of 2025-02-24: AAPL 124,917,523 short on 2025-01-31, 157,008,120 on 2024-12-31.
    expect(items[0]).toMatchObject({
      input: 'AAPL',
      status: 'ok',
      shortInterest: {
        sharesShort: 124_917_523,
        sharesShortPriorMonth: 157_008_120,
        change: -32_090_597,
        priorSettlementDate: '2024-12-31',
        shortRatio: 2.12,
        percentOfFloat: 0.83,
        percentOfSharesOutstanding: 0.83,
        settlementDate: '2025-01-31',
        asOf: '2025-02-24T09:34:51.000Z',
        source: 'yahoo',
        stale: true,
      },
    });
    // ABBV has no quote here: its recorded statistics alone answer.
    expect(items[1]).toMatchObject({
      input: 'ABBV US Equity',
      status: 'ok',
      shortInterest: { sharesShort: 18_931_401, change: 1_927_825, shortRatio: 3.11, percentOfFloat: 1.07 },
    });
    // Yahoo publishes no short interest for London listings.
    expect(items[2]).toMatchObject({ input: 'OCDO.L', status: 'error', error: { code: 'not_found' } });
    expect(textOf(result).split('\n')[1]).toBe(
      'AAPL,ok,2025-01-31,124917523,157008120,-32090597,2.12,0.83,0.83,true,2025-02-24T09:34:51.000Z',
    );
  });

  it('market.resolve says what each form reads as and what is held', async () => {
    const result = await callTool(client, 'market.resolve', {
      tickers: ['BARC LN Equity', 'ABBV', 'GT10 Index'],
    });
    const items = (result.structuredContent as { items: Record<string, unknown>[] }).items;
    expect(items[0]).toMatchObject({
      status: 'ok',
      resolved: { ticker: 'BARC:XLON', symbol: 'BARC.L', currency: 'GBp', dialect: 'terminal' },
      held: { quote: true, bars: { count: 666 }, statementFields: 0, shortInterest: false },
    });
    expect(items[1]).toMatchObject({
      status: 'ok',
      held: { quote: false, bars: null, shortInterest: true },
    });
    expect(items[2]).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('arguments the REST route refuses are a tool error with the same code, and take no unit', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `T${i}`);
    const result = await callTool(client, 'market.data', { tickers: many, fields: ['PX_LAST'] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('invalid_params: up to 50 tickers a data request; 51 given');
    expect(result._meta).not.toHaveProperty('units');
    const unknown = await callTool(client, 'market.quotes', { tickers: ['AAPL'], extra: 1 });
    expect(textOf(unknown)).toBe('invalid_params: unknown argument "extra"');
  });

  it('every result carries the units used and remaining, and when they reset', async () => {
    const first = await callTool(client, 'market.resolve', { tickers: ['AAPL'] });
    const second = await callTool(client, 'market.resolve', { tickers: ['AAPL'] });
    const units = (r: typeof first) =>
      (r._meta as { units: { used: number; minute: { remaining: number; resetAt: string }; day: object } })
        .units;
    expect(units(first).used).toBe(1);
    expect(units(second).minute.remaining).toBe(units(first).minute.remaining - 1);
    expect(Date.parse(units(first).minute.resetAt)).toBeGreaterThan(env.deps.clock().getTime());
    expect(units(first).day).toMatchObject({ limit: 5000 });
  });

  it('a tool of the other kind of key answers wrong_key, as REST does; a tool nobody serves is unknown', async () => {
    const datasets = await connect(url, (await customer(env.deps)).key);
    try {
      const market = await callTool(datasets, 'market.quotes', { tickers: ['AAPL'] });
      expect(market.isError).toBe(true);
      expect(textOf(market)).toBe(
        'wrong_key: The market tools take svc_mcp_ keys; this is a datasets key (gds_), which sees the dataset tools.',
      );
      await expect(callTool(datasets, 'market.nothing', {})).rejects.toThrow(/Unknown tool market\.nothing/);
    } finally {
      await datasets.close();
    }
    const board = await callTool(client, 'datasets.cpi_board', {});
    expect(textOf(board)).toBe(
      'wrong_key: The dataset tools take gds_ keys; this is a market key (svc_mcp_), which sees the market tools.',
    );
    expect(board._meta).not.toHaveProperty('units');
  });

  describe('keys', () => {
    const post = (headers: Record<string, string>) => fetch(`${url}/mcp`, initializeRequest(headers));
    const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

    it('401 missing_key with WWW-Authenticate: Bearer and the house error body', async () => {
      const res = await post({});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await res.json()).toMatchObject({ error: 'missing_key', requestId: expect.any(String) });
    });

    it('401 invalid_key for an unknown and for a revoked key', async () => {
      expect((await post(bearer('svc_mcp_unknownunknownunknownunknown'))).status).toBe(401);
      const account = await createAccount(env.deps, {
        email: 'revoked-mcp@example.com',
        marketPlan: 'paid',
        emailConfirmed: true,
      });
      const created = await createKey(env.deps, { accountId: account.id, api: 'market' });
      await revokeKey(env.deps, { keyId: created.id });
      const res = await post(bearer(created.key));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await errorOf(res)).toBe('invalid_key');
    });

    it('401 wrong_key for a svc_news_ key', async () => {
      const res = await post({ 'x-api-key': 'svc_news_abcdefabcdefabcdefabcdef' });
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toBe('wrong_key');
    });

    it('402 plan_required for a svc_mcp_ key on a free market plan', async () => {
      const free = await marketKey(env.deps, { marketPlan: 'free' });
      const res = await post(bearer(free));
      expect(res.status).toBe(402);
      expect(await errorOf(res)).toBe('plan_required');
    });

    it('a svc_mcp_ key with full access works here, though REST refuses it as too broad', async () => {
      const full = await marketKey(env.deps, { access: 'full' });
      const rejected = await env.app.inject({ url: '/v1/quotes?tickers=AAPL', headers: bearer(full) });
      expect(rejected.json().error).toBe('key_too_broad');
      const broad = await connect(url, full);
      try {
        const result = await callTool(broad, 'market.quotes', { tickers: ['AAPL'] });
        expect(result.isError).toBeFalsy();
      } finally {
        await broad.close();
      }
    });

    it('403 key_disabled for a gds_ key whose account email is not confirmed', async () => {
      const { key: unconfirmed } = await customer(env.deps, { confirmed: false });
      const res = await post(bearer(unconfirmed));
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toBe('key_disabled');
    });

    it('GET and DELETE /mcp answer 405: the server is stateless', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${url}/mcp`, { method, headers: bearer(key) });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(await errorOf(res)).toBe('method_not_allowed');
      }
    });

    it('advertises no OAuth metadata', async () => {
      const res = await fetch(`${url}/.well-known/oauth-protected-resource`);
      expect(res.status).toBe(404);
    });
  });
});
