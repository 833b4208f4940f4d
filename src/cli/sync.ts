// quarry sync SOURCE: fetch the agency's current files and load those that changed.
import { COLLECTIONS } from '../datasets/registry.js';
import { collect } from '../ingest/collect.js';
import { syncSec } from '../ingest/sec/sync.js';
import type { Deps } from '../kernel/deps.js';
import { LOADERS } from '../runtime/loaders.js';
import { parse } from './args.js';
import { UsageError } from './output.js';

export async function syncCommand(deps: Deps, argv: string[]): Promise<{ report: object; failed: boolean }> {
  if (argv[0] === 'sec') return syncSecCommand(deps, argv.slice(1));
  const { args } = parse(argv, {}, ['SOURCE']);
  const source = args.SOURCE as string;
  const found = COLLECTIONS.get(source);
  if (!found) throw new UsageError(`sync takes a source: ${[...COLLECTIONS.keys()].join(', ')}, sec`);
  const report = await collect(deps, source, found.collection, found.loaders);
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
  return { report, failed: report.files.some((f) => f.outcome === 'failed') };
}
