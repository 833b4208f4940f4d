// quarry sync SOURCE: fetch the agency's current files and load those that changed.

import { syncUsaspending } from '../datasets/awards/load/usaspending-sync.js';
import { produceAfterLoads } from '../datasets/bulk/after-load.js';
import { COLLECTIONS } from '../datasets/registry.js';
import { collect } from '../ingest/collect.js';
import { syncSec } from '../ingest/sec/sync.js';
import type { Deps } from '../kernel/deps.js';
import { LOADERS } from '../runtime/loaders.js';
import { parse } from './args.js';
import { UsageError } from './output.js';

export async function syncCommand(deps: Deps, argv: string[]): Promise<{ report: object; failed: boolean }> {
  if (argv[0] === 'sec') return syncSecCommand(deps, argv.slice(1));
  if (argv[0] === 'usaspending') return syncUsaspendingCommand(deps, argv.slice(1));
  const { args } = parse(argv, {}, ['SOURCE']);
  const source = args.SOURCE;
  const found = COLLECTIONS.get(source);
  if (!found)
    throw new UsageError(`sync takes a source: ${[...COLLECTIONS.keys()].join(', ')}, sec, usaspending`);
  const report = await collect(deps, source, found.collection, found.loaders);
  await produceAfterLoads(
    deps,
    report.files.map((f) => f.load),
  );
  // A file the agency does not publish, or cannot serve now, is reported; only a load that failed fails the run.
  return { report, failed: report.files.some((f) => f.outcome === 'failed') };
}

/** quarry sync sec [--tickers T,…]: the watch list given, or QUARRY_SEC_TICKERS. */
async function syncSecCommand(deps: Deps, argv: string[]): Promise<{ report: object; failed: boolean }> {
  const { values } = parse(argv, { tickers: { type: 'string' } }, []);
  const given = values.tickers?.split(',').map((t) => t.trim().toUpperCase()) ?? null;
  const tickers = given?.filter(Boolean) ?? deps.config.secTickers;
  if (tickers.length === 0)
    throw new UsageError(
      'sync sec needs the companies to follow: --tickers AAPL,NVDA (or QUARRY_SEC_TICKERS)',
    );
  const loaders = LOADERS.sec;
  if (!loaders) throw new Error('no loaders for EDGAR files');
  const report = await syncSec(deps, tickers, loaders);
  await produceAfterLoads(
    deps,
    report.files.map((f) => f.load),
  );
  return { report, failed: report.files.some((f) => f.outcome === 'failed') };
}

/** quarry sync usaspending [--agency NAME]… [--recipient NAME]… [--from DATE] [--to DATE]: prime contracts. */
async function syncUsaspendingCommand(
  deps: Deps,
  argv: string[],
): Promise<{ report: object; failed: boolean }> {
  const { values } = parse(
    argv,
    {
      agency: { type: 'string', multiple: true },
      recipient: { type: 'string', multiple: true },
      from: { type: 'string' },
      to: { type: 'string' },
    },
    [],
  );
  for (const name of ['from', 'to'] as const) {
    const date = values[name];
    if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date))
      throw new UsageError(`--${name} must be YYYY-MM-DD`);
  }
  const filters = {
    ...(values.agency ? { agencies: [values.agency].flat() } : {}),
    ...(values.recipient ? { recipients: [values.recipient].flat() } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
  };
  if (Object.keys(filters).length === 0)
    throw new UsageError('sync usaspending needs a filter: --agency, --recipient, --from or --to');
  const loaders = LOADERS.usaspending;
  if (!loaders) throw new Error('no loaders for USAspending files');
  const report = await syncUsaspending(deps, filters, loaders);
  await produceAfterLoads(
    deps,
    report.files.map((f) => f.load),
  );
  return { report, failed: report.files.some((f) => f.outcome === 'failed') };
}
