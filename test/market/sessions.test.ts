import { describe, expect, it } from 'vitest';
import { resolveTicker } from '../../src/market/symbology/resolve.js';
import { nextOpen, type Session, sessionOf } from '../../src/market/symbology/sessions.js';

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
