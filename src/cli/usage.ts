// quarry usage ACCOUNT [--since YYYY-MM-DD]: credits and market-data units by UTC day.
import { getAccount } from '../accounts/accounts.js';
import { usageByDay } from '../accounts/usage-days.js';
import type { Deps } from '../kernel/deps.js';
import { parse } from './args.js';
import { UsageError } from './output.js';

export async function usageCommand(deps: Deps, argv: string[]): Promise<object> {
  const { args, values } = parse(argv, { since: { type: 'string' } }, ['ACCOUNT']);
  const account = await getAccount(deps.store.db, args.ACCOUNT);
  const since = values.since ?? previousMonthStart(account.periodStart);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(since))) {
    throw new UsageError(`--since must be a date, YYYY-MM-DD; got "${since}"`);
  }
  return {
    account: account.id,
    period: { start: account.periodStart, end: account.periodEnd },
    ...(await usageByDay(deps, account.id, since)),
  };
}

/** By default the previous period and the current one: from the first of the month before this period's. */
function previousMonthStart(periodStart: string): string {
  const start = new Date(periodStart);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
}
