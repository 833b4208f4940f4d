// The TypeScript client (clients/typescript): its committed types are those the two OpenAPI documents make
// now; it builds with tsc; and, built, it is used against a real server (the built CLI on a fresh store holding
// recorded files), each answer compared with the REST API's own answer to the same call.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes } from '../../scripts/client-types.js';
import { type ClientServer, startClientServer } from '../helpers/client-server.js';
import { testEnv } from '../helpers/env.js';

type Client = typeof import('../../clients/typescript/src/index.js');

describe('the TypeScript client’s types', () => {
  it('are those the OpenAPI documents make now (npm run client:types writes them)', async () => {
    const env = await testEnv();
    try {
      const made = await clientTypes(env.app);
      expect(Object.keys(made).sort()).toEqual([
        'clients/typescript/src/datasets-api.ts',
        'clients/typescript/src/market-api.ts',
      ]);
      for (const [file, text] of Object.entries(made)) expect(readFileSync(file, 'utf8'), file).toBe(text);
    } finally {
      await env.close();
    }
  });
});

describe('the TypeScript client against a real server', () => {
  let running: ClientServer;
  let quarry: Client;
  let base: string;
  const key = (name: string) => running.keys[name] ?? '';

  beforeAll(async () => {
    const build = spawnSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'clients/typescript/tsconfig.json'],
      { encoding: 'utf8' },
    );
    expect(build.status, build.stdout + build.stderr).toBe(0);
    quarry = (await import(pathToFileURL(path.resolve('clients/typescript/dist/index.js')).href)) as Client;
    running = await startClientServer();
    base = running.server.url;
  }, 120_000);
  afterAll(() => running?.stop());

  /** The REST answer, read without the client. */
  const rest = async <T>(method: string, route: string, given: string, body?: unknown): Promise<T> => {
    const res = await fetch(base + route, {
      method,
      headers: { authorization: `Bearer ${given}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as T;
  };
  type Items = { items: unknown[] };
  const client = (options: Record<string, unknown> = {}) =>
    new quarry.Quarry({
      baseUrl: base,
      datasetsKey: key('QUARRY_DATASETS_KEY'),
      marketKey: key('QUARRY_MARKET_KEY'),
      ...options,
    });

  it('quotes, data and history answer what the REST API answers, per-item errors kept', async () => {
    const q = client();
    const quotes = await q.quotes(['AAPL', 'BARC.L']);
    const expected = await rest<{ items: { quote: { price: number } }[] }>(
      'POST',
      '/v1/quotes',
      key('QUARRY_MARKET_KEY'),
      { tickers: ['AAPL', 'BARC.L'] },
    );
    expect(quotes.map((item) => item.quote?.price)).toEqual(expected.items.map((item) => item.quote.price));
    expect(q.last).toMatchObject({ status: 200, units: 1 });

    const tickers = ['AAPL', 'BARC LN Equity', 'NOPE.XX'];
    const data = await q.data(tickers, ['PX_LAST', 'EQY_BETA']);
    const rested = await rest<Items>('POST', '/v1/data', key('QUARRY_MARKET_KEY'), {
      tickers,
      fields: ['PX_LAST', 'EQY_BETA'],
    });
    expect(data).toEqual(rested.items);
    expect(data.map((item) => item.input)).toEqual(tickers);
    expect(data[2]?.status).toBe('error');

    const window = { start: '2023-08-21', end: '2023-08-25' };
    const history = await q.history(['BARC.L', 'AAPL'], ['PX_LAST', 'PX_VOLUME'], window);
    const restedHistory = await rest<Items>('POST', '/v1/history', key('QUARRY_MARKET_KEY'), {
      tickers: ['BARC.L', 'AAPL'],
      fields: ['PX_LAST', 'PX_VOLUME'],
      ...window,
    });
    expect(history).toEqual(restedHistory.items);
    expect(history[1]?.rows).toHaveLength(5);
  });

  it('corporate actions answer what the REST API answers, per-item errors kept', async () => {
    const q = client();
    const actions = await q.actions(['MSFT', 'NOPE.XX'], { types: ['dividend'] });
    const rested = await rest<Items>('POST', '/v1/actions', key('QUARRY_MARKET_KEY'), {
      tickers: ['MSFT', 'NOPE.XX'],
      types: ['dividend'],
    });
    expect(actions).toEqual(rested.items);
    expect(actions[0]?.actions?.map((a) => a.date)).toEqual([
      '2021-02-17',
      '2021-05-19',
      '2021-08-18',
      '2021-11-17',
    ]);
    expect(actions[1]?.error?.code).toBe('not_found');
  });

  it('a repaired value says so, typed: an action sent in the other unit, a bar value scaled back', async () => {
    const q = client();
    // REL.L from yfinance's table: its 2022-04-28 dividend sent as 35.5 (pence) among prices in pounds.
    const [rel] = await q.actions(['REL.L'], { start: '2022-04-28', end: '2022-04-28' });
    const paid = rel?.actions?.[0];
    expect(paid?.amount).toBe(0.355);
    const repaired: { from: number; reason: string } | undefined = paid?.repaired;
    expect(repaired?.from).toBe(35.5);
    expect(repaired?.reason).toMatch(/a hundred times too large/);
    const [barc] = await q.history(['BARC.L'], ['PX_LAST'], { start: '2022-06-13', end: '2022-06-15' });
    const closes = barc?.repaired?.filter((r) => r.field === 'close');
    expect(closes).toEqual([
      {
        date: '2022-06-14',
        field: 'close',
        from: 0.015676,
        to: 1.5676,
        reason: expect.stringContaining('other unit'),
      },
    ]);
  });

  it('the field dictionary and the search', async () => {
    const q = client();
    const fields = await q.fields();
    const price = fields.find((f) => f.id === 'price');
    expect(price?.aliases.map((a) => a.name)).toContain('PX_LAST');
    const found = await q.search('apple');
    const rested = await rest<Items>('GET', '/v1/search?q=apple', key('QUARRY_MARKET_KEY'));
    expect(found).toEqual(rested.items);
    expect(found.length).toBeGreaterThan(0);
  });

  it('the COT board and a contract, as the REST API answers them', async () => {
    const q = client();
    const board = await q.cot();
    // deafut_2026-04-14.txt: 353 markets reported on 14 April 2026.
    expect(board.data.rows).toHaveLength(353);
    const contract = await q.cotContract('067651', { traderClass: 'noncommercial' });
    const rested = await rest<{ data: object }>(
      'GET',
      '/v1/cftc/cot/contracts/067651?traderClass=noncommercial',
      key('QUARRY_DATASETS_KEY'),
    );
    expect(contract.data).toEqual({ ...rested.data, generatedAt: contract.data.generatedAt });
    expect(q.last).toMatchObject({ creditsCharged: 2 });
  });

  it('awards: pages followed through nextCursor, the same rows as one large page', async () => {
    const q = client();
    const listing = await rest<{ data: { rows: { id: string }[] } }>(
      'GET',
      '/v1/awards?limit=200',
      key('QUARRY_DATASETS_KEY'),
    );
    const every = listing.data.rows;
    const paged: string[] = [];
    for await (const award of q.awards({ limit: 2 }, 5)) paged.push(award.id);
    expect(paged).toEqual(every.slice(0, 5).map((a) => a.id));
    const first = every[0]?.id ?? '';
    expect((await q.award(first)).data.award.id).toBe(first);
  });

  it('the boards, an award as known on a date, and a company not held', async () => {
    const q = client();
    const energy = await q.energy();
    const rested = await rest<{ data: { series: { id: string }[] } }>(
      'GET',
      '/v1/energy/inventories',
      key('QUARRY_DATASETS_KEY'),
    );
    expect(energy.data.series.map((s) => s.id)).toEqual(rested.data.series.map((s) => s.id));
    expect(energy.data.series.map((s) => s.id)).toContain('WCESTUS1');
    // No CPI file is loaded: no rows.
    expect((await q.cpi()).data.rows).toEqual([]);
    // The TED notice was published on 31 March 2020.
    const then: string[] = [];
    for await (const award of q.awards({ asOf: '2020-03-31' })) then.push(award.source);
    expect(then.length).toBeGreaterThan(0);
    expect(new Set(then)).toEqual(new Set(['ted']));
    // Each call made when it is awaited: made all at once, one could reject before its expect is attached.
    for (const call of [
      () => q.events('ZZZZ'),
      () => q.kpis('ZZZZ'),
      () => q.guidance('ZZZZ'),
      () => q.execPay('ZZZZ'),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'not_found', status: 404 });
    }
  });

  it('the change feed: pages followed with nextCursor, then an empty page with a cursor to poll with', async () => {
    const q = client();
    const keys: string[] = [];
    let since: string | undefined;
    for (;;) {
      const page = await q.changes('cot', { limit: 100, ...(since ? { since } : {}) });
      since = page.data.nextCursor;
      if (page.data.changes.length === 0) break;
      for (const change of page.data.changes) keys.push(String(change.key.contractCode));
    }
    const rested = await rest<{ data: { changes: { key: { contractCode: string } }[] } }>(
      'GET',
      '/v1/datasets/cot/changes?limit=1000',
      key('QUARRY_DATASETS_KEY'),
    );
    expect(keys).toEqual(rested.data.changes.map((c) => c.key.contractCode));
    expect(keys).toHaveLength(353);
    expect(since).toMatch(/\S/);
  });

  it('bulk: the whole file as a stream, then a broken download resumed for nothing', async () => {
    const q = client({ datasetsKey: key('QUARRY_BULK_KEY') });
    const whole = await q.bulk('cot', { format: 'csv' });
    const text = await new Response(whole.body).text();
    expect(q.last?.creditsCharged).toBe(25);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^reportFamily,contractCode,reportDate,/);
    expect(lines).toHaveLength(1 + 353);
    expect(whole.rows).toBe(353);
    const rest = await q.bulk('cot', { format: 'csv' }, { from: 1000, etag: whole.etag });
    expect(rest.partial).toBe(true);
    expect(q.last?.creditsCharged).toBe(0);
    expect(text.slice(0, 1000) + (await new Response(rest.body).text())).toBe(text);
  });

  it('account and estimate', async () => {
    const q = client();
    expect((await q.account()).plan).toBe('basic');
    expect((await q.estimate({ endpoint: 'cot.board' })).credits).toBe(1);
    const usage = await q.usage();
    expect(usage.plan).toBe('basic');
    expect(usage.totals.calls).toBeGreaterThan(0);
  });

  it('each refusal is a QuarryError with the API’s code, status and request id', async () => {
    const refused = async (
      options: Record<string, unknown>,
      call: (c: InstanceType<Client['Quarry']>) => Promise<unknown>,
    ) => {
      const error = await call(client(options)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(quarry.QuarryError);
      return error as InstanceType<Client['QuarryError']>;
    };
    const cases: [
      Record<string, unknown>,
      (c: InstanceType<Client['Quarry']>) => Promise<unknown>,
      string,
      number,
    ][] = [
      [{ marketKey: `svc_mcp_${'x'.repeat(40)}` }, (c) => c.quotes(['AAPL']), 'invalid_key', 401],
      [{ datasetsKey: key('QUARRY_MARKET_KEY') }, (c) => c.cpi(), 'wrong_key', 401],
      [{ marketKey: '' }, (c) => c.quotes(['AAPL']), 'missing_key', 401],
      [{}, (c) => c.cpi({ asOf: '2999-01-01' }), 'invalid_params', 400],
      [{}, (c) => c.award('f'.repeat(40)), 'not_found', 404],
      [{ datasetsKey: key('QUARRY_ENDED_KEY') }, (c) => c.cpi(), 'plan_required', 402],
      [{ datasetsKey: key('QUARRY_POOR_KEY') }, (c) => c.awards().next(), 'insufficient_credits', 402],
      [{ marketKey: key('QUARRY_UNCONFIRMED_KEY') }, (c) => c.quotes(['AAPL']), 'key_disabled', 403],
      [{ marketKey: key('QUARRY_FULL_KEY') }, (c) => c.quotes(['AAPL']), 'key_too_broad', 403],
    ];
    for (const [options, call, code, status] of cases) {
      const error = await refused(options, call);
      expect([error.code, error.status], code).toEqual([code, status]);
      expect(error.requestId, code).toMatch(/^req_/);
    }
  });

  it('a 429 is waited out as its Retry-After says, three times, then thrown', async () => {
    const waits: number[] = [];
    const limited = client({
      marketKey: key('QUARRY_LIMITED_KEY'),
      sleep: async (seconds: number) => {
        waits.push(seconds);
      },
    });
    const hundred = Array.from({ length: 100 }, (_, i) => `U${i}`);
    // 100 tickers are five units: 24 calls take a minute's 120 and the next is answered 429.
    let answered = 0;
    let error: unknown = null;
    while (answered < 60 && error === null) {
      await limited.quotes(hundred).then(
        () => {
          answered += 1;
        },
        (e: unknown) => {
          error = e;
        },
      );
    }
    expect(answered).toBeGreaterThanOrEqual(24);
    expect(error).toBeInstanceOf(quarry.QuarryError);
    expect((error as { code: string }).code).toBe('rate_limited');
    expect(waits).toHaveLength(3);
    for (const wait of waits) expect(wait > 0 && wait <= 60).toBe(true);
  });
});
