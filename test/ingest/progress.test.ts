// The progress line of a load: share, records, rate and time left, worked by hand.
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/ingest/progress.js';

describe('progressLine', () => {
  it('a quarter read in 2 s with 1,000 records: 500/s and 6 s left', () => {
    expect(progressLine({ label: 'cot x.zip', share: 0.25, records: 1000, elapsedMs: 2000 })).toBe(
      'cot x.zip [######                  ] 25% 1,000 records 500/s ETA 6s',
    );
  });

  it('a tenth read in 10 s: 1m30s left; an hour and more in hours and minutes', () => {
    expect(progressLine({ label: 'f', share: 0.1, records: 12345, elapsedMs: 10_000 })).toMatch(
      /\] 10% 12,345 records 1,235\/s ETA 1m30s$/,
    );
    expect(progressLine({ label: 'f', share: 0.01, records: 5, elapsedMs: 60_000 })).toMatch(/ETA 1h39m$/);
  });

  it('finished: a full bar and done; nothing read yet: no estimate', () => {
    expect(progressLine({ label: 'f', share: 1, records: 7, elapsedMs: 1000 })).toBe(
      `f [${'#'.repeat(24)}] 100% 7 records 7/s done`,
    );
    expect(progressLine({ label: 'f', share: 0, records: 0, elapsedMs: 0 })).toBe(
      `f [${' '.repeat(24)}] 0% 0 records 0/s ETA …`,
    );
  });
});
