// The switch: unless DATA_API_ENABLED is true, every stored-datasets route answers 503 data_api_disabled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, customer, type TestEnv, testEnv } from '../helpers/env.js';

const ROUTES = [
  '/v1/datasets',
  '/v1/datasets/cost?endpoint=cpi.board',
  '/v1/datasets/openapi.json',
  '/v1/datasets/cot/sample',
  '/v1/datasets/account',
  '/v1/datasets/usage',
  '/v1/macro/cpi',
  '/v1/energy/inventories',
  '/v1/cftc/cot',
  '/v1/cftc/cot/contracts/067651',
  '/v1/awards',
  `/v1/awards/${'0'.repeat(40)}`,
  '/v1/kpis/AAPL',
  '/v1/guidance/AAPL',
  '/v1/exec-pay/AAPL',
  '/v1/exec-pay/AAPL/2024',
  '/v1/events/AAPL',
];

for (const value of ['', 'false']) {
  describe(`DATA_API_ENABLED=${value || '(unset)'}`, () => {
    let env: TestEnv;
    let key: string;
    beforeAll(async () => {
      env = await testEnv({ env: { DATA_API_ENABLED: value } });
      key = (await customer(env.deps)).key;
    });
    afterAll(() => env.close());

    for (const url of ROUTES) {
      it(`503 data_api_disabled on ${url}`, async () => {
        const res = await env.app.inject({ method: 'GET', url, headers: bearer(key) });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({
          error: 'data_api_disabled',
          requestId: expect.stringMatching(/^req_/),
        });
      });
    }

    it('charges nothing while switched off', async () => {
      const account = await env.deps.store.db
        .selectFrom('accounts')
        .select(['period_charged'])
        .executeTakeFirstOrThrow();
      expect(Number(account.period_charged)).toBe(0);
    });
  });
}
