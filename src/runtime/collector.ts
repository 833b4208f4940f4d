// The collector's jobs: one per schedule of every dataset's collections, each a collect() of its files, and
// the EDGAR watch list when one is configured.
import { hostname } from 'node:os';
import { newId } from '../accounts/key-text.js';
import { produceAfterLoads } from '../datasets/bulk/after-load.js';
import { COLLECTIONS } from '../datasets/registry.js';
import { collect, type SyncReport } from '../ingest/collect.js';
import { Collector, type ScheduledJob } from '../ingest/collector.js';
import type { JobOutcome } from '../ingest/jobs.js';
import { SEC_EDGAR } from '../ingest/sec/calendar.js';
import { syncSec } from '../ingest/sec/sync.js';
import type { Deps } from '../kernel/deps.js';
import { LOADERS } from './loaders.js';

export function collectionJobs(deps: Deps): ScheduledJob[] {
  return [...agencyJobs(deps), ...edgarJobs(deps)];
}

/** The watch list's filings (QUARRY_SEC_TICKERS), read from EDGAR each business day once it closes. */
function edgarJobs(deps: Deps): ScheduledJob[] {
  const loaders = LOADERS.sec;
  if (deps.config.secTickers.length === 0 || !loaders) return [];
  return [
    {
      name: 'sec-watch-list',
      calendar: SEC_EDGAR,
      async run(): Promise<JobOutcome> {
        const report = await syncSec(deps, deps.config.secTickers, loaders);
        await produceAfterLoads(
          deps,
          report.files.map((f) => f.load),
        );
        return outcomeOf(report);
      },
    },
  ];
}

function outcomeOf(report: SyncReport): JobOutcome {
  if (report.files.some((f) => f.outcome === 'failed' || f.outcome === 'unreachable')) {
    return report.files.some((f) => f.outcome === 'loaded') ? 'new' : 'failed';
  }
  return report.files.some((f) => f.outcome === 'loaded') ? 'new' : 'nothing_new';
}

function agencyJobs(deps: Deps): ScheduledJob[] {
  return [...COLLECTIONS].flatMap(([source, { collection, loaders }]) =>
    collection.schedules.map((schedule) => ({
      name: schedule.job,
      calendar: schedule.calendar,
      async run(): Promise<JobOutcome> {
        const report = await collect(deps, source, collection, loaders, schedule.paths);
        await produceAfterLoads(
          deps,
          report.files.map((f) => f.load),
        );
        return outcomeOf(report);
      },
    })),
  );
}

export function createCollector(deps: Deps, log: (event: Record<string, unknown>) => void): Collector {
  return new Collector(deps, collectionJobs(deps), {
    holder: `${hostname()}:${process.pid}:${newId('key').slice(-6)}`,
    leaseMs: deps.config.collectLeaseMs,
    pollMs: deps.config.collectPollMs,
    log,
  });
}
