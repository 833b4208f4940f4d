import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CFTC_COT } from '../../src/datasets/cot/calendar.js';
import { afterRun, Collector } from '../../src/ingest/collector.js';
import { ensureJob, finishJob, readJob, renewJob, takeJob } from '../../src/ingest/jobs.js';
import { collectionStatus } from '../../src/ingest/status.js';
import { collectionJobs } from '../../src/runtime/collector.js';
import { createDeps } from '../../src/runtime/deps.js';
import { MockAgency } from '../helpers/agency.js';
import { customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';
import { real } from '../helpers/real-data.js';

const at = (iso: string) => new Date(iso);

describe('afterRun: when a job runs next', () => {
  // CFTC releases: Friday 2024-06-14 19:30Z, then Monday 2024-06-24 19:30Z (Juneteenth week).
  it('found something new: the next release', () => {
    expect(
      afterRun(CFTC_COT, { outcome: 'new', at: at('2024-06-14T19:40:00Z'), attempt: 3, lastNewAt: null }),
    ).toEqual({
      nextAt: at('2024-06-24T19:30:00Z'),
      attempt: 0,
    });
  });

  it('nothing new yet after a release: retries in 5, 10, 20 … minutes, at most 2 hours apart', () => {
    const waiting = (attempt: number) =>
      afterRun(CFTC_COT, {
        outcome: 'nothing_new',
        at: at('2024-06-14T19:40:00Z'),
        attempt,
        lastNewAt: '2024-06-07T19:45:00Z',
      });
    expect(waiting(0)).toEqual({ nextAt: at('2024-06-14T19:45:00Z'), attempt: 1 });
    expect(waiting(2)).toEqual({ nextAt: at('2024-06-14T20:00:00Z'), attempt: 3 });
    expect(waiting(9)).toEqual({ nextAt: at('2024-06-14T21:40:00Z'), attempt: 10 });
  });

  it('nothing new but the latest release is already held: idle until the next release', () => {
    expect(
      afterRun(CFTC_COT, {
        outcome: 'nothing_new',
        at: at('2024-06-18T10:00:00Z'),
        attempt: 0,
        lastNewAt: '2024-06-14T19:50:00Z',
      }),
    ).toEqual({ nextAt: at('2024-06-24T19:30:00Z'), attempt: 0 });
  });

  it('a failed run retries even when the data is current, and never past the next release', () => {
    expect(
      afterRun(CFTC_COT, {
        outcome: 'failed',
        at: at('2024-06-18T10:00:00Z'),
        attempt: 0,
        lastNewAt: '2024-06-14T19:50:00Z',
      }),
    ).toEqual({ nextAt: at('2024-06-18T10:05:00Z'), attempt: 1 });
    expect(
      afterRun(CFTC_COT, { outcome: 'failed', at: at('2024-06-24T18:45:00Z'), attempt: 9, lastNewAt: null }),
    ).toEqual({ nextAt: at('2024-06-24T19:30:00Z'), attempt: 10 });
  });
});

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`job leases on ${engine}`, () => {
    let env: TestEnv;
    beforeAll(async () => {
      env = await testEnv({ engine });
    });
    afterAll(() => env.close());

    it('of two instances taking a due job at once, exactly one gets it; the other after the lease expires', async () => {
      const db = env.deps.store.db;
      // A second instance: its own connections to the same store.
      const other = await createDeps(env.config);
      try {
        const now = at('2026-06-01T12:00:00Z');
        await ensureJob(db, 'race', now);
        const [a, b] = await Promise.all([
          takeJob(db, 'race', 'a', now, 1000),
          takeJob(other.store.db, 'race', 'b', now, 1000),
        ]);
        expect([a, b].filter(Boolean)).toHaveLength(1);
        const winner = a ? 'a' : 'b';
        const loser = a ? 'b' : 'a';
        expect(await takeJob(db, 'race', loser, at('2026-06-01T12:00:00.999Z'), 1000)).toBe(false);
        expect(await renewJob(db, 'race', loser, now, 1000)).toBe(false);
        // The winner is gone (killed): its lease runs out and the other takes the job.
        expect(await takeJob(db, 'race', loser, at('2026-06-01T12:00:01.001Z'), 1000)).toBe(true);
        expect(await renewJob(db, 'race', winner, now, 1000)).toBe(false);
        // The old holder's late finish changes nothing.
        await finishJob(db, 'race', winner, {
          outcome: 'new',
          at: now,
          nextAt: at('2030-01-01T00:00:00Z'),
          attempt: 0,
        });
        expect(await readJob(db, 'race')).toMatchObject({ holder: loser, next_at: now.toISOString() });
      } finally {
        await other.close();
      }
    });

    it('a job that is not due is not taken', async () => {
      const db = env.deps.store.db;
      await ensureJob(db, 'later', at('2026-06-02T00:00:00Z'));
      expect(await takeJob(db, 'later', 'a', at('2026-06-01T23:59:59Z'), 1000)).toBe(false);
      expect(await takeJob(db, 'later', 'a', at('2026-06-02T00:00:00Z'), 1000)).toBe(true);
    });
  });
}

describe('a collector pass', () => {
  const agency = new MockAgency();
  let env: TestEnv;
  let now = at('2021-03-19T21:00:00Z'); // after the release of Friday 19 March 2021, 15:30 EDT
  beforeAll(async () => {
    await agency.start();
    agency.serve('/files/dea/history/fut_disagg_txt_2021.zip', real('cftc/fut_disagg_txt_2021_f_year.zip'));
    env = await testEnv({
      clock: () => now,
      env: {
        ...agency.env(),
      },
    });
  });
  afterAll(async () => {
    await env.close();
    await agency.stop();
  });

  it('runs every due job once, loads what is new, and waits for the next release', async () => {
    const events: Record<string, unknown>[] = [];
    const collector = new Collector(env.deps, collectionJobs(env.deps), {
      holder: 'test',
      leaseMs: 60_000,
      pollMs: 60_000,
      log: (e) => events.push(e),
    });
    await collector.tick();
    const finished = Object.fromEntries(
      events.filter((e) => e.event === 'job_finished').map((e) => [e.job, [e.outcome, e.nextAt]]),
    );
    expect(finished).toEqual({
      cftc: ['new', '2021-03-26T19:30:00.000Z'],
      // Nothing is published at the stand-in for these: they retry in five minutes.
      'eia-petroleum': ['nothing_new', '2021-03-19T21:05:00.000Z'],
      'eia-gas-storage': ['nothing_new', '2021-03-19T21:05:00.000Z'],
      'bls-cpi': ['nothing_new', '2021-03-19T21:05:00.000Z'],
      'treasury-rates': ['nothing_new', '2021-03-19T21:05:00.000Z'],
    });
    const loaded = await env.deps.store.db.selectFrom('source_files').select(['name', 'rows']).execute();
    expect(loaded).toEqual([{ name: 'fut_disagg_txt_2021.zip', rows: 2178 }]);
    // What an operator sees (quarry status): the store's span of the file and the job having the release.
    const status = await collectionStatus(
      env.deps.store.db,
      'cot',
      [{ job: 'cftc', calendar: CFTC_COT }],
      now,
    );
    expect(status).toMatchObject({
      firstDate: '2021-01-05',
      lastDate: '2021-03-16',
      files: 1,
      lastLoad: { file: 'fut_disagg_txt_2021.zip', rows: 2178, inserted: 2178 },
      jobs: [
        {
          job: 'cftc',
          latestRelease: '2021-03-19T19:30:00.000Z',
          nextRelease: '2021-03-26T19:30:00.000Z',
          collected: true,
          lastOutcome: 'new',
          heldBy: null,
        },
      ],
    });

    // A pass before anything is due runs nothing.
    events.length = 0;
    now = at('2021-03-19T21:04:00Z');
    await collector.tick();
    expect(events).toEqual([]);
    // The next Friday's release: the job runs again and finds the file unchanged (a 304): the release is
    // not out at the source yet, so it tries again in five minutes.
    now = at('2021-03-26T19:31:00Z');
    const asked = agency.requests.length;
    await collector.tick();
    const cftc = events.find((e) => e.event === 'job_finished' && e.job === 'cftc');
    expect(cftc).toMatchObject({ outcome: 'nothing_new', nextAt: '2021-03-26T19:36:00.000Z' });
    expect(agency.requests.slice(asked).find((r) => r.path.endsWith('fut_disagg_txt_2021.zip'))?.status).toBe(
      304,
    );
    expect(await readJob(env.deps.store.db, 'cftc')).toMatchObject({
      attempt: 1,
      holder: null,
      last_outcome: 'nothing_new',
    });
  });
});

describe('freshness on the boards', () => {
  const agency = new MockAgency();
  let env: TestEnv;
  let key = '';
  let now = at('2021-03-19T21:00:00Z');
  const board = async () => {
    const res = await env.app.inject({
      url: '/v1/cftc/cot?report=disaggregated&traderClass=managed-money',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      data: { status: string; gaps: string[] };
      meta: { coverage: Record<string, unknown> };
    };
  };
  beforeAll(async () => {
    await agency.start();
    agency.serve('/files/dea/history/fut_disagg_txt_2021.zip', real('cftc/fut_disagg_txt_2021_f_year.zip'));
    env = await testEnv({
      clock: () => now,
      env: {
        ...agency.env(),
      },
    });
    key = (await customer(env.deps)).key;
    const collector = new Collector(env.deps, collectionJobs(env.deps), {
      holder: 'test',
      leaseMs: 60_000,
      pollMs: 60_000,
      log: () => {},
    });
    await collector.tick();
    collectAgain = () => collector.tick();
  });
  let collectAgain: () => Promise<void> = async () => {};
  afterAll(async () => {
    await env.close();
    await agency.stop();
  });

  it('meta.coverage says what the store holds and when the next release is due', async () => {
    const { data, meta } = await board();
    expect(data.status).toBe('available');
    expect(meta.coverage).toMatchObject({
      // The 2,178 rows of the file (eleven weeks of 2021), as PROVENANCE counts them.
      records: 2178,
      firstPeriod: '2021-01-05',
      lastPeriod: '2021-03-16',
      lastLoad: { file: 'fut_disagg_txt_2021.zip', loadedAt: '2021-03-19T21:00:00.000Z' },
      nextRelease: '2021-03-26T19:30:00.000Z',
    });
  });

  it('a release out and not held makes the board stale at once; six hours on, the collector is named too', async () => {
    const stale = 'stale: newest disaggregated report 2021-03-16; the CFTC has published 1 report since';
    now = at('2021-03-26T19:29:00Z');
    expect((await board()).data).toMatchObject({ status: 'available', gaps: [] });
    now = at('2021-03-26T23:00:00Z');
    expect((await board()).data).toMatchObject({ status: 'partial', gaps: [stale] });
    now = at('2021-03-27T02:00:00Z');
    const { data } = await board();
    expect(data.status).toBe('partial');
    expect(data.gaps).toEqual([stale, 'the release of 2021-03-26T19:30:00.000Z (cftc) is not loaded yet']);
  });

  it('a failed collection is a gap too', async () => {
    agency.fail('/files/dea/history/fut_disagg_txt_2021.zip', 500);
    now = at('2021-03-27T03:00:00Z');
    await collectAgain();
    const { data } = await board();
    expect(data.gaps).toContain('the last collection (cftc, 2021-03-27T03:00:00.000Z) failed');
  });
});
