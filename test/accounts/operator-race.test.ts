// An operator changing a balance or a plan while the account's keys are called: every charge lands or is refused
// with 402, never 500, and the ledger, the balance and each row's balance_after agree exactly (on each engine).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccount, setBalance, setContract, setPlan } from '../../src/accounts/accounts.js';
import { bearer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';

const LOOPS = 12;
const CALLS_A_LOOP = 50;
const CYCLES = 40;

interface LedgerRow {
  id: number;
  period_start: string;
  kind: string;
  amount: number;
  balance_after: number;
}

/** Every row whose balance_after does not follow from the row before it in its period (the grant opens one). */
function brokenChain(rows: LedgerRow[]): LedgerRow[] {
  const broken: LedgerRow[] = [];
  const last = new Map<string, number>();
  for (const row of rows) {
    const before = last.get(row.period_start);
    const expected = row.kind === 'grant' ? row.amount : (before ?? Number.NaN) + row.amount;
    if (row.balance_after !== expected) broken.push(row);
    last.set(row.period_start, row.balance_after);
  }
  return broken;
}

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`operator changes beside keyed calls on ${engine}`, () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => new Date('2026-11-18T10:00:30.000Z') });
    });
    afterAll(() => env.close());

    it('keeps every credit: set-balance and set-plan during 12 loops of calls', async () => {
      const user = await customer(env.deps);
      const statuses = new Map<number, number>();
      const loop = async () => {
        for (let i = 0; i < CALLS_A_LOOP; i += 1) {
          const res = await env.app.inject({
            method: 'GET',
            url: '/v1/macro/cpi',
            headers: bearer(user.key),
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        }
      };
      const operator = async () => {
        for (let cycle = 0; cycle < CYCLES; cycle += 1) {
          if (cycle % 2 === 0) {
            // Small balances too, so that charges meet a balance that cannot cover them.
            await setBalance(env.deps, { accountId: user.accountId, balance: cycle % 4 === 0 ? 100_000 : 3 });
          } else {
            const plan = cycle % 4 === 1 ? 'enterprise' : 'desk';
            await setPlan(env.deps, { accountId: user.accountId, plan });
            if (plan === 'enterprise') {
              await setContract(env.deps, {
                accountId: user.accountId,
                change: { creditsPerMonth: 5_000, creditsPerMinute: 1_000_000 },
              });
            }
          }
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await Promise.all([operator(), ...Array.from({ length: LOOPS }, loop)]);

      expect([...statuses.keys()].filter((status) => status !== 200 && status !== 402)).toEqual([]);
      const account = await getAccount(env.deps.store.db, user.accountId);
      const rows = (
        await env.deps.store.db
          .selectFrom('ledger')
          .select(['id', 'period_start', 'kind', 'amount', 'balance_after'])
          .where('account_id', '=', user.accountId)
          .orderBy('id')
          .execute()
      ).map((r) => ({
        ...r,
        id: Number(r.id),
        amount: Number(r.amount),
        balance_after: Number(r.balance_after),
      }));
      const current = rows.filter((r) => r.period_start === account.periodStart);
      expect(current.reduce((sum, r) => sum + r.amount, 0)).toBe(account.balance);
      expect(brokenChain(rows)).toEqual([]);
      // Each call answered 200 is exactly one charge row, and no charge row is without its call.
      expect(rows.filter((r) => r.kind === 'charge').length).toBe(statuses.get(200) ?? 0);
    }, 120_000);
  });
}
