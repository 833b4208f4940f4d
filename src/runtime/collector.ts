// The collector's jobs: one per schedule of every dataset's collections, each a collect() of its files.
import { hostname } from 'node:os';
import { newId } from '../accounts/key-text.js';
import { COLLECTIONS } from '../datasets/registry.js';
import { collect } from '../ingest/collect.js';
import { Collector, type ScheduledJob } from '../ingest/collector.js';
import type { JobOutcome } from '../ingest/jobs.js';
import type { Deps } from '../kernel/deps.js';

export function collectionJobs(deps: Deps): ScheduledJob[] {
  return [...COLLECTIONS].flatMap(([source, { collection, loaders }]) =>
    collection.schedules.map((schedule) => ({
      name: schedule.job,
      calendar: schedule.calendar,
      async run(): Promise<JobOutcome> {
        const report = await collect(deps, source, collection, loaders, schedule.paths);
        if (report.files.some((f) => f.outcome === 'failed' || f.outcome === 'unreachable')) {
          return report.files.some((f) => f.outcome === 'loaded') ? 'new' : 'failed';
        }
        return report.files.some((f) => f.outcome === 'loaded') ? 'new' : 'nothing_new';
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
