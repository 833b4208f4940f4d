// Usage of a period, by dataset and call type: the flushed rows plus this process's unflushed counts.
import type { Deps } from '../kernel/deps.js';
import type { UsageEntry } from '../store/usage-buffer.js';

export async function readUsage(deps: Deps, accountId: string, periodStart: string) {
  const rows = await deps.store.db
    .selectFrom('usage')
    .select(['dataset', 'call_type', 'calls', 'credits'])
    .where('account_id', '=', accountId)
    .where('period_start', '=', periodStart)
    .execute();
  const entries: Pick<UsageEntry, 'dataset' | 'callType' | 'calls' | 'credits'>[] = [
    ...rows.map((r) => ({ dataset: r.dataset, callType: r.call_type, calls: r.calls, credits: r.credits })),
    ...deps.usage.unflushed(accountId, periodStart),
  ];

  const byDataset = new Map<string, Map<string, { calls: number; credits: number }>>();
  for (const e of entries) {
    const types = byDataset.get(e.dataset) ?? new Map();
    byDataset.set(e.dataset, types);
    const sum = types.get(e.callType) ?? { calls: 0, credits: 0 };
    sum.calls += Number(e.calls);
    sum.credits += Number(e.credits);
    types.set(e.callType, sum);
  }

  const datasets = [...byDataset.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([dataset, types]) => {
      const callTypes = [...types.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([callType, sum]) => ({ callType, ...sum }));
      return {
        dataset,
        calls: callTypes.reduce((n, t) => n + t.calls, 0),
        credits: callTypes.reduce((n, t) => n + t.credits, 0),
        callTypes,
      };
    });
  return {
    totals: {
      calls: datasets.reduce((n, d) => n + d.calls, 0),
      credits: datasets.reduce((n, d) => n + d.credits, 0),
    },
    datasets,
    note: 'Usage is counted per call and written every few seconds; the balance on /v1/datasets/account is authoritative.',
  };
}
