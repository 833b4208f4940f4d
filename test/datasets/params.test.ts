// Spec, stored-datasets API: every row of the Parameter definitions table, on the routes that take it:
// valid and boundary values pass validation, invalid ones get 400 invalid_params naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Customer, customer, type TestEnv, testEnv } from '../helpers/env.js';

const ID = 'a'.repeat(40);

// [parameter, url with {v} for the value, valid values, invalid values]
const ROWS: [string, string, string[], string[]][] = [
  [
    'symbol',
    '/v1/kpis/{v}',
    ['A', 'brk.b', 'X'.repeat(32), 'RDS:A', 'BF-B'],
    ['X'.repeat(33), 'A$B', 'A%20B', 'A_B'],
  ],
  ['ticker', '/v1/awards?ticker={v}', ['lmt', 'X'.repeat(32)], ['X'.repeat(33), 'L M']],
  [
    'contractCode',
    '/v1/cftc/cot/contracts/{v}',
    ['067651', '13874+', '06765t'],
    ['06765', '0676511', '06765-', '+67651'],
  ],
  ['report', '/v1/cftc/cot?report={v}', ['legacy', 'disaggregated'], ['Legacy', 'tff']],
  [
    'traderClass',
    '/v1/cftc/cot?traderClass={v}',
    ['noncommercial', 'commercial', 'nonreportable'],
    ['swap', 'dealers'],
  ],
  ['jurisdiction', '/v1/awards?jurisdiction={v}', ['us', 'USA'], ['U', 'USAX', 'U1']],
  ['currency', '/v1/awards?currency={v}', ['usd', 'EUR'], ['US', 'EURO', 'U$D']],
  [
    'agency',
    '/v1/awards?agency={v}',
    ['Department%20of%20Defense', 'x'.repeat(200)],
    ['x'.repeat(201), '%20%20'],
  ],
  ['sector', '/v1/awards?sector={v}', ['Defense'], ['%09']],
  ['query', '/v1/awards?query={v}', ['mit', 'q'.repeat(200)], ['q'.repeat(201), '%20']],
  [
    'source',
    '/v1/awards?source={v}',
    ['usaspending', 'ted_eu-2', 's'.repeat(64)],
    ['USAspending', 's'.repeat(65), 'a.b'],
  ],
  ['parentId', '/v1/awards?parentId={v}', [ID], [ID.toUpperCase(), ID.slice(1), `${ID}0`]],
  ['id', '/v1/awards/{v}', [ID], [ID.toUpperCase(), 'g'.repeat(40)]],
  ['awardType', '/v1/awards?awardType={v}', ['prime', 'subaward', 'modification', 'notice'], ['grant']],
  ['from', '/v1/awards?from={v}', ['2024-02-29'], ['2023-02-29', '2024-1-01', '20240101']],
  ['to', '/v1/kpis/AAPL?to={v}', ['2024-12-31'], ['2024-13-01']],
  ['asOf', '/v1/guidance/AAPL?asOf={v}', ['2020-01-01'], ['yesterday']],
  ['fiscalYear', '/v1/awards?fiscalYear={v}', ['2000', '2100'], ['1999', '2101', '20.5']],
  ['year', '/v1/exec-pay/AAPL/{v}', ['1900', '2100'], ['1899', '2101', 'abcd']],
  [
    'minAmount',
    '/v1/awards?minAmount={v}',
    ['0', `${'9'.repeat(24)}.${'9'.repeat(6)}`, '1000.5'],
    [`${'9'.repeat(25)}`, '1.1234567', '-1', '1e5', '.5'],
  ],
  ['cursor', '/v1/awards?cursor={v}', [], ['%20', 'x'.repeat(1025)]],
  ['revisionsCursor', `/v1/awards/${ID}?revisionsCursor={v}`, [], ['%20', 'x'.repeat(1025)]],
  ['limit', '/v1/awards?limit={v}', ['1', '200'], ['0', '201', '1.5', 'ten']],
  [
    'metric',
    '/v1/kpis/AAPL?metric={v}',
    ['revenue', 'm'.repeat(80), 'net_new_arr_2'],
    ['Revenue', 'm'.repeat(81), 'net-new'],
  ],
  ['basis', '/v1/kpis/AAPL?basis={v}', ['reported', 'adjusted', 'constant_currency', 'organic'], ['gaap']],
];

describe('parameter definitions', () => {
  let env: TestEnv;
  let user: Customer;
  beforeAll(async () => {
    env = await testEnv();
    user = await customer(env.deps);
  });
  afterAll(() => env.close());
  const call = (url: string) => env.app.inject({ method: 'GET', url, headers: bearer(user.key) });

  for (const [name, template, valid, invalid] of ROWS) {
    for (const value of valid) {
      it(`${name}: accepts ${value.length > 40 ? `${value.length} characters` : value}`, async () => {
        const res = await call(template.replace('{v}', value));
        // Not a validation failure: 200 with data, or 404 for a symbol, id or contract not stored.
        expect([200, 404], res.body).toContain(res.statusCode);
      });
    }
    for (const value of invalid) {
      it(`${name}: refuses ${value.length > 40 ? `${value.length} characters` : value}`, async () => {
        const res = await call(template.replace('{v}', value));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error).toBe('invalid_params');
        expect(res.json().message).toContain(`"${name}"`);
      });
    }
  }

  it('traderClass must belong to the selected report', async () => {
    expect((await call('/v1/cftc/cot?report=disaggregated&traderClass=managed-money')).statusCode).toBe(200);
    expect((await call('/v1/cftc/cot?report=disaggregated&traderClass=noncommercial')).statusCode).toBe(400);
    expect((await call('/v1/cftc/cot?report=legacy&traderClass=producer')).statusCode).toBe(400);
  });

  it('from must be on or before to (equal is fine)', async () => {
    expect((await call('/v1/awards?from=2024-01-01&to=2024-01-01')).statusCode).toBe(200);
    const res = await call('/v1/awards?from=2024-01-02&to=2024-01-01');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/"from".*after "to"/);
  });

  it('unknown, empty and repeated parameters are refused on every keyed route', async () => {
    for (const url of ['/v1/macro/cpi', '/v1/energy/inventories', '/v1/events/AAPL', `/v1/awards/${ID}`]) {
      expect((await call(`${url}?nope=1`)).json().message).toBe('unknown parameter "nope"');
    }
    expect((await call('/v1/awards?limit=')).json().message).toBe('parameter "limit" is empty');
    expect((await call('/v1/awards?limit=5&limit=6')).json().message).toBe(
      'parameter "limit" is repeated; send it once',
    );
  });
});
