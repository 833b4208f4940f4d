import { describe, expect, it } from 'vitest';
import { resolveTicker } from '../../../src/market/symbology/resolve.js';
import { closeOf, nextOpen, type Session, sessionOf } from '../../../src/market/symbology/sessions.js';

function sessionFor(ticker: string): Session | null {
  const resolution = resolveTicker(ticker);
  if (resolution.status !== 'ok') throw new Error(`${ticker} does not resolve`);
  return sessionOf(resolution.resolved);
}

const opening = (ticker: string, now: string) => {
  const session = sessionFor(ticker);
  if (!session) throw new Error(`${ticker} has no session`);
  return nextOpen(session, new Date(now)).toISOString();
};

describe('next opening of a market', () => {
  it('opens US listings at 09:30 New York on the next weekday', () => {
    // Tuesday 10:00 New York (a quote closed then: a holiday) -> Wednesday.
    expect(opening('AAPL', '2026-11-24T15:00:00Z')).toBe('2026-11-25T14:30:00.000Z');
    // Before the bell the same day.
    expect(opening('AAPL US Equity', '2026-11-24T12:00:00Z')).toBe('2026-11-24T14:30:00.000Z');
    // Friday evening -> Monday.
    expect(opening('MSFT', '2026-11-27T22:00:00Z')).toBe('2026-11-30T14:30:00.000Z');
    // Over the change to daylight time (8 March 2026): Monday 09:30 EDT is 13:30 UTC.
    expect(opening('MSFT', '2026-03-06T22:00:00Z')).toBe('2026-03-09T13:30:00.000Z');
  });

  it('opens other venues at their own local hour', () => {
    // London in summer time: 08:00 BST is 07:00 UTC.
    expect(opening('VOD.L', '2026-07-03T17:00:00Z')).toBe('2026-07-06T07:00:00.000Z');
    expect(opening('VOD LN Equity', '2026-11-24T17:00:00Z')).toBe('2026-11-25T08:00:00.000Z');
    // Tokyo, no daylight time: 09:00 JST is 00:00 UTC.
    expect(opening('7203.T', '2026-11-24T07:00:00Z')).toBe('2026-11-25T00:00:00.000Z');
  });

  it('reopens currencies on Sunday evening New York and knows no opening for crypto', () => {
    expect(opening('EURUSD=X', '2026-11-28T12:00:00Z')).toBe('2026-11-29T22:00:00.000Z');
    expect(sessionFor('BTC-USD')).toBeNull();
  });
});

describe("a day's close in its market's own clock", () => {
  // Read back with Intl on its own, instant by instant: the offsets the sessions keep must agree with it every
  // day, across each zone's changes to and from daylight time (north and south) over the years bars cover.
  const wallTime = (timeZone: string) => {
    const format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    return (at: Date) => format.format(at).replace(' ', 'T');
  };

  it.each(['AAPL', 'VOD.L', 'SAP.DE', '7203.T', 'BHP.AX', 'PETR4.SA', 'FPH.NZ', 'RELIANCE.NS'])(
    'closes %s at its local closing time every day',
    (ticker) => {
      const session = sessionFor(ticker);
      if (!session) throw new Error(`${ticker} has no session`);
      const local = wallTime(session.timeZone);
      const mismatches: string[] = [];
      for (let t = Date.UTC(1985, 0, 1); t < Date.UTC(2027, 0, 1); t += 86_400_000 * 3) {
        const date = new Date(t).toISOString().slice(0, 10);
        const seen = local(closeOf(session, date));
        if (seen !== `${date}T${session.closes}`) mismatches.push(`${date}: ${seen}`);
      }
      expect(mismatches).toEqual([]);
    },
  );
});
