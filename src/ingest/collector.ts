// The collector: every instance that runs it looks for due jobs every few seconds; a job is taken under a
// lease (exactly one instance runs it), run, and given its next time: the next release when it found
// something new or already holds the latest release, else a retry with backoff until the release appears.
import type { Deps } from '../kernel/deps.js';
import { lastRelease, nextRelease, type ReleaseCalendar } from './calendar.js';
import { ensureJob, finishJob, type JobOutcome, readJob, renewJob, takeJob } from './jobs.js';

export interface ScheduledJob {
  name: string;
  calendar: ReleaseCalendar;
  run(): Promise<JobOutcome>;
}

export interface CollectorOptions {
  /** Who this instance is, in the jobs table. */
  holder: string;
  leaseMs: number;
  /** How often this instance looks for due jobs. */
  pollMs: number;
  log(event: Record<string, unknown>): void;
}

const FIRST_RETRY_MS = 5 * 60_000;
const MAX_RETRY_MS = 2 * 3_600_000;

/**
 * When a job runs next. Something new, or the latest release already collected: the next release. Else
 * (the release is not out yet, or the run failed) a retry, 5 minutes doubling to 2 hours, never past the
 * next release.
 */
export function afterRun(
  calendar: ReleaseCalendar,
  run: { outcome: JobOutcome; at: Date; attempt: number; lastNewAt: string | null },
): { nextAt: Date; attempt: number } {
  const next = nextRelease(calendar, run.at);
  const latest = lastRelease(calendar, run.at);
  const current =
    run.outcome === 'new' || (run.lastNewAt !== null && Date.parse(run.lastNewAt) >= latest.getTime());
  if (current && run.outcome !== 'failed') return { nextAt: next, attempt: 0 };
  const wait = Math.min(FIRST_RETRY_MS * 2 ** run.attempt, MAX_RETRY_MS);
  return { nextAt: new Date(Math.min(run.at.getTime() + wait, next.getTime())), attempt: run.attempt + 1 };
}

export class Collector {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: Pick<Deps, 'store' | 'clock'>,
    private readonly jobs: readonly ScheduledJob[],
    private readonly options: CollectorOptions,
  ) {}

  start(): void {
    const pass = () => {
      this.running ??= this.tick()
        .catch((error: unknown) => this.options.log({ event: 'collector_error', error: String(error) }))
        .finally(() => {
          this.running = null;
        });
    };
    pass();
    this.timer = setInterval(pass, this.options.pollMs);
  }

  /** Stops looking for jobs and waits for the one running, if any. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: runs each job that is due and not held by a live lease. */
  async tick(): Promise<void> {
    const db = this.deps.store.db;
    const { holder, leaseMs, log } = this.options;
    for (const job of this.jobs) {
      await ensureJob(db, job.name, this.deps.clock());
      if (!(await takeJob(db, job.name, holder, this.deps.clock(), leaseMs))) continue;
      const state = await readJob(db, job.name);
      log({ event: 'job_started', job: job.name, holder });
      const renewing = setInterval(
        () => {
          void renewJob(db, job.name, holder, this.deps.clock(), leaseMs).then((held) => {
            if (!held) log({ event: 'job_lease_lost', job: job.name, holder });
          });
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      let outcome: JobOutcome;
      try {
        outcome = await job.run();
      } catch (error) {
        log({ event: 'job_error', job: job.name, error: String(error) });
        outcome = 'failed';
      } finally {
        clearInterval(renewing);
      }
      const at = this.deps.clock();
      const next = afterRun(job.calendar, {
        outcome,
        at,
        attempt: state?.attempt ?? 0,
        lastNewAt: state?.last_new_at ?? null,
      });
      await finishJob(db, job.name, holder, { outcome, at, ...next });
      log({ event: 'job_finished', job: job.name, holder, outcome, nextAt: next.nextAt.toISOString() });
    }
  }
}
