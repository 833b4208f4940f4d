// Spec, stored-datasets API: Public routes (catalog, cost estimate, API description, samples) and
// the sample limit of the Limits table.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_BY_ID } from '../../src/datasets/registry.js';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { type TestEnv, testEnv } from '../helpers/env.js';

const DATASETS = [
  'awards',
  'kpis-guidance',
  'exec-pay',
  'events',
  'cpi',
  'energy-inventories',
  'cot',
  'treasury-rates',
];

describe('public routes', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());
  const get = (url: string, headers: Record<string, string> = {}) =>
    env.app.inject({ method: 'GET', url, headers });

  it('GET /v1/datasets lists the eight datasets with the catalog entry fields', async () => {
    const res = await get('/v1/datasets');
    expect(res.statusCode).toBe(200);
    const { datasets } = res.json();
    expect(datasets.map((d: { id: string }) => d.id)).toEqual(DATASETS);
    const costs = Object.fromEntries(
      datasets.map((d: { id: string; creditCost: number }) => [d.id, d.creditCost]),
    );
    // The cheapest call of each dataset, from the spec's route table.
    expect(costs).toEqual({
      awards: 4,
      'kpis-guidance': 2,
      'exec-pay': 2,
      events: 2,
      cpi: 1,
      'energy-inventories': 1,
      cot: 1,
      'treasury-rates': 1,
    });
    for (const entry of datasets) {
      expect(Object.keys(entry).sort()).toEqual([
        'bulk',
        'class',
        'classLabel',
        'coverage',
        'creditCost',
        'id',
        'name',
        'plans',
        'status',
      ]);
      expect(entry).toMatchObject({
        status: 'live',
        class: 'sellable',
        plans: ['basic', 'desk', 'enterprise'],
        // Nothing is loaded here: nothing held, nothing known to be missing, no bulk file made yet (where it
        // is and what it costs are said all the same).
        bulk: {
          url: `/v1/datasets/${entry.id}/bulk`,
          credits: 25,
          formats: ['csv', 'ndjson', 'parquet'],
          made: false,
          rows: null,
          producedAt: null,
          sizes: null,
        },
        coverage: {
          records: 0,
          firstPeriod: null,
          lastPeriod: null,
          lastLoad: null,
          releasesSince: null,
          stale: false,
        },
      });
    }
  });

  describe('GET /v1/datasets/cost', () => {
    const cases: [string, number, string, number][] = [
      ['endpoint=cpi.board', 1, 'lookup', 1],
      ['endpoint=energy.inventories', 1, 'lookup', 1],
      ['endpoint=cot.board&report=disaggregated&traderClass=managed-money', 1, 'lookup', 1],
      ['endpoint=cot.contract&contractCode=13874%2B', 2, 'history', 1],
      ['endpoint=awards.list&minAmount=1000.5&fiscalYear=2024', 4, 'search', 2],
      [`endpoint=awards.detail&id=${'f'.repeat(40)}`, 10, 'evidence', 2],
      ['endpoint=kpis.company&symbol=AAPL', 2, 'lookup', 2],
      ['endpoint=kpis.company&symbol=AAPL&from=2024-01-01', 4, 'history', 2],
      ['endpoint=guidance.company&symbol=AAPL&to=2024-01-01', 4, 'history', 2],
      ['endpoint=exec-pay.list&symbol=AAPL', 2, 'lookup', 2],
      ['endpoint=exec-pay.year&symbol=AAPL&year=2024', 10, 'evidence', 2],
      ['endpoint=events.list&symbol=AAPL&limit=200', 2, 'search', 1],
      // A bulk file: the spec's bulk call, 25 credits, whatever its format or day.
      ['endpoint=cot.bulk', 25, 'bulk', 1],
      ['endpoint=awards.bulk&format=parquet&asOf=2026-01-02', 25, 'bulk', 1],
    ];
    for (const [query, credits, callType, multiplier] of cases) {
      it(`prices ${query} at ${credits}`, async () => {
        const res = await get(`/v1/datasets/cost?${query}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ credits, callType, multiplier });
      });
    }

    it('a bulk file: the route it downloads from; a format or parameter the route refuses is refused', async () => {
      expect((await get('/v1/datasets/cost?endpoint=cpi.bulk&format=ndjson')).json()).toMatchObject({
        path: '/v1/datasets/cpi/bulk',
        callType: 'bulk',
        credits: 25,
      });
      for (const query of [
        'endpoint=cpi.bulk&format=xlsx',
        'endpoint=cpi.bulk&limit=5',
        'endpoint=nope.bulk',
      ]) {
        const res = await get(`/v1/datasets/cost?${query}`);
        expect([query, res.statusCode, res.json().error]).toEqual([query, 400, 'invalid_params']);
      }
    });

    it('answers the path the described call would request', async () => {
      const res = await get('/v1/datasets/cost?endpoint=exec-pay.year&symbol=AAPL&year=2024');
      expect(res.json()).toEqual({
        endpoint: 'exec-pay.year',
        method: 'GET',
        path: '/v1/exec-pay/AAPL/2024',
        callType: 'evidence',
        callTypeCredits: 5,
        multiplier: 2,
        credits: 10,
      });
    });

    const invalid: [string, RegExp][] = [
      ['', /missing parameter "endpoint"/],
      ['endpoint=nope', /endpoint/],
      ['endpoint=kpis.company', /missing parameter "symbol"/],
      ['endpoint=cpi.board&report=legacy', /unknown parameter "report"/],
      ['endpoint=cot.board&traderClass=swap', /not a class of the legacy report/],
      ['endpoint=awards.list&limit=0', /limit/],
      ['endpoint=awards.list&limit=201', /limit/],
      ['endpoint=awards.list&from=2024-02-01&to=2024-01-01', /after/],
      ['endpoint=awards.list&minAmount=1.1234567', /minAmount/],
      ['endpoint=awards.list&query=', /empty/],
      ['endpoint=awards.list&limit=1&limit=2', /repeated/],
      ['endpoint=cpi.board&endpoint=cot.board', /"endpoint" is repeated/],
      ['endpoint=exec-pay.year&symbol=AAPL&year=1899', /year/],
      ['endpoint=cot.contract&contractCode=1234', /contractCode/],
    ];
    for (const [query, message] of invalid) {
      it(`400 invalid_params for ${query || 'no parameters'}`, async () => {
        const res = await get(`/v1/datasets/cost?${query}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('invalid_params');
        expect(res.json().message).toMatch(message);
      });
    }

    it('needs no key and spends nothing', async () => {
      const res = await get('/v1/datasets/cost?endpoint=awards.list', {
        authorization: 'Bearer gds_whatever',
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-credits-cost']).toBeUndefined();
    });
  });

  describe('GET /v1/datasets/openapi.json', () => {
    // biome-ignore lint/suspicious/noExplicitAny: walking a parsed JSON document
    let doc: Record<string, any>;
    beforeAll(async () => {
      doc = (await get('/v1/datasets/openapi.json')).json();
    });

    it('is a valid OpenAPI 3.1 document, version 1.0.0', async () => {
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.version).toBe('1.0.0');
      const result = await new Validator().validate(structuredClone(doc));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    });

    it('documents every route of the API', () => {
      const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops as object).map(
          ([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`,
        ),
      );
      expect(routes.sort()).toEqual(
        [
          'GET /v1/datasets datasets.list',
          'GET /v1/datasets/cost credits.estimate',
          'GET /v1/datasets/openapi.json openapi.get',
          'GET /v1/datasets/{dataset}/sample datasets.sample',
          'GET /v1/datasets/account account.get',
          'GET /v1/datasets/usage usage.get',
          'GET /v1/macro/cpi cpi.board',
          'GET /v1/rates/treasury/curve rates.curve',
          'GET /v1/rates/treasury/tenors/{tenor} rates.history',
          'GET /v1/datasets/treasury-rates/bulk treasury-rates.bulk',
          'GET /v1/datasets/treasury-rates/changes treasury-rates.changes',
          'GET /v1/energy/inventories energy.inventories',
          'GET /v1/cftc/cot cot.board',
          'GET /v1/cftc/cot/contracts/{contractCode} cot.contract',
          'GET /v1/awards awards.list',
          'GET /v1/awards/{id} awards.detail',
          'GET /v1/kpis/{symbol} kpis.company',
          'GET /v1/guidance/{symbol} guidance.company',
          'GET /v1/exec-pay/{symbol} exec-pay.list',
          'GET /v1/exec-pay/{symbol}/{year} exec-pay.year',
          'GET /v1/events/{symbol} events.list',
          // The change feed and the bulk files of each dataset, and the signed bulk links.
          ...['awards', 'cot', 'cpi', 'energy-inventories', 'events', 'exec-pay', 'kpis-guidance'].flatMap(
            (d) => [`GET /v1/datasets/${d}/changes ${d}.changes`, `GET /v1/datasets/${d}/bulk ${d}.bulk`],
          ),
          'GET /v1/bulk-links/{token} bulk.link',
        ].sort(),
      );
    });

    it('documents the parameters of the awards listing', () => {
      const params = doc.paths['/v1/awards'].get.parameters.map((p: { name: string }) => p.name);
      expect(params.sort()).toEqual(
        [
          'ticker',
          'jurisdiction',
          'currency',
          'agency',
          'sector',
          'source',
          'parentId',
          'awardType',
          'from',
          'to',
          'fiscalYear',
          'query',
          'minAmount',
          'asOf',
          'cursor',
          'limit',
        ].sort(),
      );
      const detail = doc.paths['/v1/awards/{id}'].get.parameters.map((p: { name: string }) => p.name);
      expect(detail.sort()).toEqual(['asOf', 'id', 'revisionsCursor']);
    });

    it('declares 400, 401, 402, 403, 404, 429 and 503 with the error body and credit headers on keyed routes', () => {
      for (const path of ['/v1/macro/cpi', '/v1/awards/{id}', '/v1/datasets/account', '/v1/datasets/usage']) {
        const { responses } = doc.paths[path].get;
        for (const status of ['200', '400', '401', '402', '403', '404', '429', '503']) {
          expect(responses[status], `${path} ${status}`).toBeDefined();
          expect(Object.keys(responses[status].headers)).toEqual(
            expect.arrayContaining(['X-Credits-Cost', 'X-Credits-Remaining', 'X-Plan', 'X-Request-Id']),
          );
        }
        expect(responses['429'].headers['Retry-After']).toBeDefined();
        expect(responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      }
    });

    it('documents every error code the service can emit', () => {
      const schema = doc.components.schemas.Error;
      expect(schema.properties.error.enum.sort()).toEqual([...ERROR_CODES].sort());
      for (const code of ERROR_CODES) expect(schema.description).toContain(`\`${code}\``);
    });
  });

  describe('GET /v1/datasets/{dataset}/sample', () => {
    for (const dataset of DATASETS) {
      it(`serves a synthetic ${dataset} sample at 0 credits`, async () => {
        const res = await get(`/v1/datasets/${dataset}/sample`, {
          'x-forwarded-for': `10.0.0.${DATASETS.indexOf(dataset)}`,
        });
        expect(res.statusCode).toBe(200);
        const { data, meta } = res.json();
        expect(meta).toMatchObject({ dataset, sample: true, asOf: null, lastUpdated: null });
        expect(meta.note).toMatch(/synthetic/i);
        expect(meta.source.length).toBeGreaterThan(0);
        if (dataset === 'cpi') expect(meta.disclaimer).toMatch(/derived/);
        else expect(meta.disclaimer).toBeUndefined();
        // The sample has the shape of the dataset's first operation: its list is the member that one names.
        const list = DATASET_BY_ID.get(dataset)?.operations[0]?.list;
        expect(list).toBeDefined();
        expect(data[list as string]).toHaveLength(3);
        expect(res.headers['x-credits-cost']).toBeUndefined();
      });
    }

    it('404 not_found for a dataset that does not exist', async () => {
      const res = await get('/v1/datasets/weather/sample');
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    });
  });

  it('404 not_found with a request id for an unknown route', async () => {
    const res = await get('/v1/nothing/here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'not_found',
      message: expect.any(String),
      requestId: res.headers['x-request-id'],
    });
  });
});

describe('sample limit: 30 requests per client address per hour', () => {
  it('answers 429 rate_limited with Retry-After from the 31st request of one address', async () => {
    // Twenty minutes into the hour: the hour's window ends in 2,400 seconds.
    const env = await testEnv({ clock: () => new Date('2026-11-18T10:20:00.000Z') });
    try {
      const hit = (ip: string, headers: Record<string, string> = {}) =>
        env.app.inject({ method: 'GET', url: '/v1/datasets/cot/sample', remoteAddress: ip, headers });
      for (let i = 0; i < 30; i += 1) expect((await hit('192.0.2.1')).statusCode).toBe(200);
      const limited = await hit('192.0.2.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('rate_limited');
      expect(limited.headers['retry-after']).toBe('2400');
      expect(limited.headers['ratelimit-policy']).toBe('"samples";q=30;w=3600');
      // A spoofed X-Forwarded-For does not make a new client when no proxy is trusted.
      expect((await hit('192.0.2.1', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
      // Another address has its own allowance.
      expect((await hit('192.0.2.2')).statusCode).toBe(200);
    } finally {
      await env.close();
    }
  });

  it('behind a trusted proxy, the forwarded client address is the client', async () => {
    const env = await testEnv({ env: { TRUST_PROXY: '10.1.0.0/16' } });
    try {
      const viaProxy = (client: string) =>
        env.app.inject({
          method: 'GET',
          url: '/v1/datasets/cpi/sample',
          remoteAddress: '10.1.2.3',
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < 30; i += 1) expect((await viaProxy('203.0.113.5')).statusCode).toBe(200);
      expect((await viaProxy('203.0.113.5')).statusCode).toBe(429);
      expect((await viaProxy('203.0.113.6')).statusCode).toBe(200);
      // A client that is not the proxy cannot claim another address.
      const direct = (spoof: string) =>
        env.app.inject({
          method: 'GET',
          url: '/v1/datasets/cpi/sample',
          remoteAddress: '198.51.100.9',
          headers: { 'x-forwarded-for': spoof },
        });
      for (let i = 0; i < 30; i += 1) expect((await direct(`203.0.113.${100 + i}`)).statusCode).toBe(200);
      expect((await direct('203.0.113.200')).statusCode).toBe(429);
      // A client that prepends a fake address through the proxy is still counted by its real one.
      const prepended = await env.app.inject({
        method: 'GET',
        url: '/v1/datasets/cpi/sample',
        remoteAddress: '10.1.2.3',
        headers: { 'x-forwarded-for': '1.2.3.4, 203.0.113.5' },
      });
      expect(prepended.statusCode).toBe(429);
    } finally {
      await env.close();
    }
  });
});
