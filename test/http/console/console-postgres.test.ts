// The console on PostgreSQL with two app instances on one store: a session made on one is known to the other,
// and a key revoked in the console of one is refused by the other within two seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../../src/accounts/accounts.js';
import { randomToken } from '../../../src/accounts/key-text.js';
import { buildApp } from '../../../src/http/build.js';
import { createDeps } from '../../../src/runtime/deps.js';
import { ConsoleClient } from '../../helpers/console.js';
import { bearer, pgUrl, redisUrl, type TestEnv, testEnv } from '../../helpers/env.js';

// Counters in Redis outlive a run: each run signs in as addresses of its own.
const run = randomToken(8).toLowerCase();
const octet = Number.parseInt(run.slice(0, 2), 36) % 250;

describe.skipIf(pgUrl() === null || redisUrl() === null)(
  'the console over PostgreSQL and Redis, two instances',
  () => {
    let a: TestEnv;
    let b: { app: Awaited<ReturnType<typeof buildApp>>; close(): Promise<void> };
    // One clock for both instances, moved by the tests.
    let now = Date.parse('2026-11-18T10:00:05.000Z');
    const clock = () => new Date(now);

    beforeAll(async () => {
      a = await testEnv({ engine: 'postgres', redis: true, clock });
      const deps = await createDeps(a.config, { clock });
      const app = await buildApp(a.config, deps);
      await app.ready();
      b = {
        app,
        async close() {
          await app.close();
          await deps.close();
        },
      };
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('signs up and in on one instance, is signed in on the other, and a revocation there holds everywhere', async () => {
      const onA = new ConsoleClient(a.app, `10.77.${octet}.5`);
      await onA.signUpAndIn(a.dataDir, `pg-owner-${run}@example.com`, 'postgres passphrase 1');
      const accountId = (
        await a.deps.store.db
          .selectFrom('accounts')
          .select('id')
          .where('email', '=', `pg-owner-${run}@example.com`)
          .executeTakeFirstOrThrow()
      ).id;
      await setPlan(a.deps, { accountId, plan: 'basic' });

      const onB = new ConsoleClient(b.app, `10.77.${octet}.5`);
      for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
      const overview = await onB.get('/console/overview');
      expect(overview.status).toBe(200);
      expect(overview.body).toContain('<dt>Plan</dt><dd>basic</dd>');

      const created = await onB.post('/console/keys', { api: 'datasets' });
      const key = /id="new-key">(gds_[A-Za-z0-9]+)</.exec(created.body)?.[1] as string;
      expect((await a.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) })).statusCode).toBe(200);

      const keyId = (
        await a.deps.store.db
          .selectFrom('api_keys')
          .select('id')
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).id;
      await onB.get('/console/keys');
      expect((await onB.post(`/console/keys/${keyId}/revoke`)).status).toBe(303);
      // Each instance holds a key it has read for at most a second: past that, A reads the revocation too.
      now += 1_001;
      const refused = await a.app.inject({ url: '/v1/macro/cpi', headers: bearer(key) });
      expect([refused.statusCode, refused.json().error]).toEqual([401, 'invalid_key']);

      const activity = await onA.get('/console/activity');
      expect(activity.body).toContain('<td>key revoked</td>');
    });

    it('sign-in attempts are counted across instances (Redis): the 11th on one account is refused on either', async () => {
      const owner = new ConsoleClient(a.app, `10.77.${octet}.9`);
      await owner.signUpAndIn(a.dataDir, `pg-brute-${run}@example.com`, 'postgres passphrase 2');
      for (let i = 0; i < 9; i += 1) {
        const app = i % 2 === 0 ? a.app : b.app;
        const answer = await new ConsoleClient(app, `10.78.${octet}.${i + 1}`).signIn(
          `pg-brute-${run}@example.com`,
          `guess ${i} of many`,
        );
        expect(answer.status).toBe(401);
      }
      const last = await new ConsoleClient(b.app, `10.79.${octet}.1`).signIn(
        `pg-brute-${run}@example.com`,
        'postgres passphrase 2',
      );
      expect(last.status).toBe(429);
    });
  },
);
