// The agencies' release calendars, checked against dates they published: the CFTC's 2024 Commitments of
// Traders schedule (its delayed releases marked), the EIA's psw01.xls "Next Release Date" after Presidents'
// Day 2026, and the gas storage report of the New Year's week 2024/25.
import { describe, expect, it } from 'vitest';
import { CFTC_COT, CFTC_REPORTS } from '../../src/datasets/cot/calendar.js';
import { BLS_CPI, BLS_MONTHS } from '../../src/datasets/cpi/calendar.js';
import { EIA_WEEKS, EIA_WNGSR, EIA_WPSR } from '../../src/datasets/energy/calendar.js';
import { federalHolidays, lastRelease, nextRelease, releasesSince } from '../../src/ingest/calendar.js';

const at = (iso: string) => new Date(iso);

describe('federal holidays as observed', () => {
  it('2026: Juneteenth on a Friday, Independence Day on a Saturday (observed Friday 3 July), Christmas on a Friday', () => {
    expect([...federalHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ]);
  });

  it('New Year’s Day 2022 on a Saturday is observed on Friday 31 December 2021', () => {
    expect(federalHolidays(2021).has('2021-12-31')).toBe(true);
    expect(federalHolidays(2022).has('2022-01-01')).toBe(false);
  });
});

describe('CFTC Commitments of Traders', () => {
  // The CFTC's tentative schedule of releases through 2024 (3:30 p.m. ET): "*" marks a release delayed by a
  // federal holiday.
  const published2024 = {
    January: ['05', '12', '19', '26'],
    June: ['07', '14', '24', '28'],
    July: ['08', '12', '19', '26'],
    November: ['01', '08', '15', '22'],
    December: ['02', '06', '13', '20', '30'],
  };
  const month = { January: '01', June: '06', July: '07', November: '11', December: '12' } as const;

  it('reproduces the 2024 schedule: Juneteenth, Independence Day, Thanksgiving and Christmas weeks move to Monday', () => {
    for (const [name, days] of Object.entries(published2024)) {
      const m = month[name as keyof typeof month];
      const first = name === 'December' ? '2024-11-22T21:00:00Z' : `2024-${m}-01T00:00:00Z`;
      const got: string[] = [];
      let after = at(first);
      for (let i = 0; i < days.length; i += 1) {
        after = nextRelease(CFTC_COT, after);
        got.push(after.toISOString());
      }
      const expected = days.map((d) => {
        const mm = name === 'December' && d === '02' ? '12' : m;
        // 15:30 Eastern: EDT (UTC-4) until Sunday 3 November 2024, then EST (UTC-5); EST in January.
        const edt = ['06', '07'].includes(mm) || (mm === '11' && d === '01');
        const utc = edt ? '19:30' : '20:30';
        return `2024-${mm}-${d}T${utc}:00.000Z`;
      });
      expect(got, name).toEqual(expected);
    }
  });

  it('2026: Juneteenth (Friday) moves the release to Monday 22 June; a Monday holiday moves nothing', () => {
    expect(nextRelease(CFTC_COT, at('2026-06-15T00:00:00Z')).toISOString()).toBe('2026-06-22T19:30:00.000Z');
    expect(nextRelease(CFTC_COT, at('2026-09-07T00:00:00Z')).toISOString()).toBe('2026-09-11T19:30:00.000Z');
    expect(nextRelease(CFTC_COT, at('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-30T20:30:00.000Z');
    expect(nextRelease(CFTC_COT, at('2026-12-21T00:00:00Z')).toISOString()).toBe('2026-12-28T20:30:00.000Z');
  });

  it('the last release before a moment', () => {
    expect(lastRelease(CFTC_COT, at('2024-06-23T12:00:00Z')).toISOString()).toBe('2024-06-14T19:30:00.000Z');
    expect(lastRelease(CFTC_COT, at('2024-06-24T19:30:00Z')).toISOString()).toBe('2024-06-24T19:30:00.000Z');
    // Minutes after a Friday release, that release (not the week before's).
    expect(lastRelease(CFTC_COT, at('2024-06-14T19:40:00Z')).toISOString()).toBe('2024-06-14T19:30:00.000Z');
    expect(lastRelease(CFTC_COT, at('2024-06-14T19:20:00Z')).toISOString()).toBe('2024-06-07T19:30:00.000Z');
  });
});

describe('CFTC reports published late after a lapse in appropriations', () => {
  // The catch-up schedules the CFTC announced on 29 January 2019 and 18 November 2025 (15:30 ET each).
  it('2018-19: nothing came out from 28 December; the report of 24 December on Friday 1 February, then Tuesdays and Fridays', () => {
    expect(CFTC_REPORTS.published('2018-12-18').toISOString()).toBe('2018-12-21T20:30:00.000Z');
    expect(CFTC_REPORTS.published('2018-12-24').toISOString()).toBe('2019-02-01T20:30:00.000Z');
    expect(CFTC_REPORTS.published('2018-12-31').toISOString()).toBe('2019-02-05T20:30:00.000Z');
    expect(CFTC_REPORTS.published('2019-01-22').toISOString()).toBe('2019-02-15T20:30:00.000Z');
    expect(CFTC_REPORTS.published('2019-02-26').toISOString()).toBe('2019-03-05T20:30:00.000Z');
    // Current again: the report of Tuesday 5 March on Friday 8 March.
    expect(CFTC_REPORTS.published('2019-03-05').toISOString()).toBe('2019-03-08T20:30:00.000Z');
    expect(releasesSince(CFTC_REPORTS, '2018-12-18', at('2019-01-31T23:00:00Z'))).toBe(0);
    expect(releasesSince(CFTC_REPORTS, '2018-12-18', at('2019-02-06T00:00:00Z'))).toBe(2);
    expect(nextRelease(CFTC_COT, at('2019-01-10T00:00:00Z')).toISOString()).toBe('2019-02-01T20:30:00.000Z');
    expect(nextRelease(CFTC_COT, at('2019-02-01T20:30:00Z')).toISOString()).toBe('2019-02-05T20:30:00.000Z');
    expect(lastRelease(CFTC_COT, at('2019-01-25T23:00:00Z')).toISOString()).toBe('2018-12-21T20:30:00.000Z');
  });

  it('2025: the report of 30 September on Wednesday 19 November; current again with 20 January 2026’s on the 23rd', () => {
    expect(CFTC_REPORTS.published('2025-09-23').toISOString()).toBe('2025-09-26T19:30:00.000Z');
    expect(CFTC_REPORTS.published('2025-09-30').toISOString()).toBe('2025-11-19T20:30:00.000Z');
    // Monday 10 November's report (Veterans Day was the Tuesday) on Friday 12 December.
    expect(CFTC_REPORTS.published('2025-11-10').toISOString()).toBe('2025-12-12T20:30:00.000Z');
    expect(CFTC_REPORTS.published('2026-01-13').toISOString()).toBe('2026-01-20T20:30:00.000Z');
    expect(CFTC_REPORTS.published('2026-01-20').toISOString()).toBe('2026-01-23T20:30:00.000Z');
    expect(releasesSince(CFTC_REPORTS, '2025-09-23', at('2025-11-18T12:00:00Z'))).toBe(0);
    expect(nextRelease(CFTC_COT, at('2025-10-01T00:00:00Z')).toISOString()).toBe('2025-11-19T20:30:00.000Z');
    // Two releases in the week of 22 December 2025: Tuesday 23rd (the report of 2 December), not Friday 26th.
    expect(nextRelease(CFTC_COT, at('2025-12-19T21:00:00Z')).toISOString()).toBe('2025-12-23T20:30:00.000Z');
    expect(nextRelease(CFTC_COT, at('2025-12-23T21:00:00Z')).toISOString()).toBe('2025-12-30T20:30:00.000Z');
  });
});

describe('EIA', () => {
  it('WPSR: the release after Presidents’ Day 2026 is Thursday 19 February, as psw01.xls announces', () => {
    expect(nextRelease(EIA_WPSR, at('2026-02-11T16:00:00Z')).toISOString()).toBe('2026-02-19T15:30:00.000Z');
    expect(nextRelease(EIA_WPSR, at('2026-02-19T15:30:00Z')).toISOString()).toBe('2026-02-25T15:30:00.000Z');
  });

  it('WNGSR: New Year’s Day 2025 (a Wednesday) moves the week’s report to Friday 3 January; Thanksgiving week is Wednesday noon', () => {
    expect(nextRelease(EIA_WNGSR, at('2024-12-30T00:00:00Z')).toISOString()).toBe('2025-01-03T15:30:00.000Z');
    expect(nextRelease(EIA_WNGSR, at('2026-11-20T00:00:00Z')).toISOString()).toBe('2026-11-25T17:00:00.000Z');
    expect(nextRelease(EIA_WNGSR, at('2026-06-01T00:00:00Z')).toISOString()).toBe('2026-06-04T14:30:00.000Z');
  });
});

describe('BLS CPI', () => {
  it('every business day at 08:35 ET: after Friday 3 July 2026 (observed holiday) comes Monday 6 July', () => {
    expect(nextRelease(BLS_CPI, at('2026-07-02T13:00:00Z')).toISOString()).toBe('2026-07-06T12:35:00.000Z');
  });
});

describe('periods published since the newest one held', () => {
  it('COT: the report of Tuesday 2025-03-18 came out Friday 21 March 15:30 ET; five more by the end of April', () => {
    expect(CFTC_REPORTS.published('2025-03-18').toISOString()).toBe('2025-03-21T19:30:00.000Z');
    // Reports of 25 March and 1, 8, 15 and 22 April, out on the Fridays after; 29 April's comes on 2 May.
    expect(releasesSince(CFTC_REPORTS, '2025-03-18', at('2025-04-30T00:00:00Z'))).toBe(5);
    expect(releasesSince(CFTC_REPORTS, '2025-03-18', at('2025-03-28T19:29:59Z'))).toBe(0);
    expect(releasesSince(CFTC_REPORTS, '2025-03-18', at('2025-03-28T19:30:00Z'))).toBe(1);
  });

  it('COT: by 25 November 2026, 87 reports after 2025-03-18 (every Tuesday from 25 March 2025 to 17 November 2026)', () => {
    expect(releasesSince(CFTC_REPORTS, '2025-03-18', at('2026-11-25T12:00:00Z'))).toBe(87);
  });

  it('EIA: the week ending Friday 2026-06-05 came out Wednesday 10 June 10:30 ET; four more by 9 July', () => {
    expect(EIA_WEEKS.published('2026-06-05').toISOString()).toBe('2026-06-10T14:30:00.000Z');
    // Weeks ending 12, 19 and 26 June and 3 July, out on 17 June, 24 June, 1 July and 8 July.
    expect(releasesSince(EIA_WEEKS, '2026-06-05', at('2026-07-09T00:00:00Z'))).toBe(4);
    expect(releasesSince(EIA_WEEKS, '2026-06-05', at('2026-07-08T14:29:00Z'))).toBe(3);
  });

  it('BLS: a month is out by the 20th of the next; after March 2026, seven months by 25 November 2026', () => {
    expect(BLS_MONTHS.published('2026-03').toISOString()).toBe('2026-04-20T12:30:00.000Z');
    expect(releasesSince(BLS_MONTHS, '2026-03-01', at('2026-11-25T00:00:00Z'))).toBe(7);
    expect(releasesSince(BLS_MONTHS, '2025-12-01', at('2026-01-20T12:29:00Z'))).toBe(0);
    expect(BLS_MONTHS.next('2025-12')).toBe('2026-01');
  });
});
