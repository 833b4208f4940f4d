// What the console shows of an account: its standing (plan, period, credits, keys, market units), its keys
// with their last use, and its credits by day and operation for the current and the previous period.
import type { Deps } from '../kernel/deps.js';
import { type Account, getAccount } from './accounts.js';
import { countActiveKeys, type KeyInfo, listKeys } from './keys.js';
import { MINUTE, UNITS_PER_DAY, UNITS_PER_MINUTE } from './metering.js';
import { planActive } from './plans.js';
import { readUsage } from './usage-read.js';

export type PlanStatus = 'no plan' | 'active' | 'ended';

export function planStatus(account: Account, now: Date): PlanStatus {
  if (account.plan === 'none') return 'no plan';
  return planActive(account.plan, account.planEndsAt, now) ? 'active' : 'ended';
}

export interface KeyUse extends KeyInfo {
  /** The last charged call (datasets) or the last day with units (market); null when never used. */
  lastUsed: string | null;
  /** Market keys: units used this minute and today. */
  units: { minute: number; day: number } | null;
}

/** The account's standing, opening its new credit period first if the last one has ended. */
export async function standing(deps: Deps, accountId: string) {
  const before = await getAccount(deps.store.db, accountId);
  await deps.credits.balance(before.id, before.limits.creditsPerMonth, deps.clock());
  const account = await getAccount(deps.store.db, accountId);
  return {
    account,
    status: planStatus(account, deps.clock()),
    keys: {
      used: await countActiveKeys(deps.store.db, account.id, 'datasets'),
      allowed: account.limits.maxKeys,
    },
    unitLimits: { minute: UNITS_PER_MINUTE, day: UNITS_PER_DAY },
  };
}

/** Every key of the account, oldest first, with when it was last used and, for market keys, its units. */
export async function keysWithUse(deps: Deps, accountId: string): Promise<KeyUse[]> {
  const db = deps.store.db;
  const keys = await listKeys(db, accountId);
  const charged = await db
    .selectFrom('ledger')
    .select(['key_id', (eb) => eb.fn.max('created_at').as('last')])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'charge')
    .groupBy('key_id')
    .execute();
  const units = await db
    .selectFrom('unit_usage')
    .select(['key_id', (eb) => eb.fn.max('day').as('last')])
    .where('account_id', '=', accountId)
    .groupBy('key_id')
    .execute();
  const last = new Map<string, string>();
  for (const row of [...charged, ...units])
    if (row.key_id && row.last) last.set(row.key_id, String(row.last));
  for (const row of deps.usage.unflushedUnits(accountId)) last.set(row.key_id, row.day);
  return Promise.all(
    keys.map(async (key) => ({
      ...key,
      lastUsed: last.get(key.id) ?? null,
      units: key.api === 'market' ? await unitsOf(deps, key.id) : null,
    })),
  );
}

/** The account's active market keys with their units this minute and today (no look at when keys were used). */
export async function marketKeyUnits(deps: Deps, accountId: string) {
  const keys = (await listKeys(deps.store.db, accountId)).filter(
    (k) => k.api === 'market' && k.revokedAt === null,
  );
  return Promise.all(keys.map(async (key) => ({ ...key, units: await unitsOf(deps, key.id) })));
}

/** Units counted this minute and today (a hit of 0 reads a window without adding to it). */
async function unitsOf(deps: Deps, keyId: string) {
  const key = `units:${keyId}`;
  const minute = await deps.counters.hit(key, 0, UNITS_PER_MINUTE, MINUTE);
  const day = await deps.counters.hit(key, 0, UNITS_PER_DAY, 24 * 60 * MINUTE);
  return { minute: minute.used, day: day.used };
}

export interface CreditDayRow {
  day: string;
  operation: string;
  calls: number;
  /** Net of refunds. */
  credits: number;
}

export interface PeriodUsage {
  start: string;
  rows: CreditDayRow[];
  /** By dataset and call type, as /v1/datasets/usage answers. */
  byCallType: Awaited<ReturnType<typeof readUsage>>;
}

/** Credits by UTC day and operation in the current period and the one before it (when there was one). */
export async function creditsByDay(deps: Deps, account: Account): Promise<PeriodUsage[]> {
  const db = deps.store.db;
  const previous = await db
    .selectFrom('ledger')
    .select((eb) => eb.fn.max('period_start').as('start'))
    .where('account_id', '=', account.id)
    .where('period_start', '<', account.periodStart)
    .executeTakeFirst();
  const starts = [account.periodStart, ...(previous?.start ? [String(previous.start)] : [])];
  const rows = await db
    .selectFrom('ledger')
    .select(['period_start', 'kind', 'operation', 'amount', 'created_at'])
    .where('account_id', '=', account.id)
    .where('period_start', 'in', starts)
    .where('kind', 'in', ['charge', 'refund'])
    .execute();
  return Promise.all(
    starts.map(async (start) => {
      const sums = new Map<string, CreditDayRow>();
      for (const row of rows.filter((r) => r.period_start === start)) {
        const day = row.created_at.slice(0, 10);
        const operation = row.operation ?? 'unknown';
        const id = `${day} ${operation}`;
        const sum = sums.get(id) ?? { day, operation, calls: 0, credits: 0 };
        sums.set(id, sum);
        if (row.kind === 'charge') sum.calls += 1;
        sum.credits -= Number(row.amount);
      }
      const sorted = [...sums.values()].sort(
        (a, b) => a.day.localeCompare(b.day) || a.operation.localeCompare(b.operation),
      );
      return { start, rows: sorted, byCallType: await readUsage(deps, account.id, start) };
    }),
  );
}
