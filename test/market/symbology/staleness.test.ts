// Old values say so: a value is stale once a regular session of its market has opened after it (holidays are
// not known, so a holiday counts), a daily bar's close is true at its session's close, and markets without
// known sessions are judged by age. Expectations are counted by hand from the calendar.
import { describe, expect, it } from 'vitest';
import { barClose, openingsBetween, sessionOf, staleReason } from '../../../src/market/symbology/sessions.js';

const US = { mic: null, assetType: 'equity', currency: 'USD' } as const;
const LONDON = { mic: 'XLON', assetType: 'equity', currency: 'GBP' } as const;
const at = (iso: string) => new Date(iso);

describe('a daily bar is true at its session close', () => {
  it('New York 16:00: 21:00 UTC in winter, 20:00 in summer; London 16:30: the same hour in winter', () => {
    expect(barClose(US, '2025-02-14')).toBe('2025-02-14T21:00:00.000Z');
    expect(barClose(US, '2026-05-01')).toBe('2026-05-01T20:00:00.000Z');
    expect(barClose(LONDON, '2026-01-15')).toBe('2026-01-15T16:30:00.000Z');
    expect(barClose(LONDON, '2026-07-15')).toBe('2026-07-15T15:30:00.000Z');
  });

  it('a market whose sessions are not known: midnight UTC of the bar', () => {
    expect(barClose({ mic: null, assetType: 'index', currency: 'EUR' } as const, '2026-06-28')).toBe(
      '2026-06-28T00:00:00.000Z',
    );
  });

  it('crypto, which trades every hour of a UTC day: the midnight that ends the bar’s day', () => {
    expect(barClose({ mic: null, assetType: 'crypto', currency: 'USD' } as const, '2026-06-28')).toBe(
      '2026-06-29T00:00:00.000Z',
    );
  });
});

describe('sessions opened between two instants', () => {
  const session = sessionOf(US);
  if (!session) throw new Error('US listings have a session');

  it('after a Friday close, none until Monday 09:30 New York (14:30 UTC in February)', () => {
    const close = at('2025-02-14T21:00:00Z');
    expect(openingsBetween(session, close, at('2025-02-17T14:29:59Z'))).toBe(0);
    expect(openingsBetween(session, close, at('2025-02-17T14:30:00Z'))).toBe(1);
    // Monday to Friday of the next week, and the Monday after.
    expect(openingsBetween(session, close, at('2025-02-24T15:00:00Z'))).toBe(6);
  });

  it('a value taken at the opening itself does not miss that opening', () => {
    expect(openingsBetween(session, at('2025-02-18T14:30:00Z'), at('2025-02-18T20:00:00Z'))).toBe(0);
  });

  it('a value taken during a session does not miss that session', () => {
    expect(openingsBetween(session, at('2026-11-24T15:00:00Z'), at('2026-11-24T20:59:00Z'))).toBe(0);
    expect(openingsBetween(session, at('2026-11-24T14:00:00Z'), at('2026-11-24T15:00:00Z'))).toBe(1);
  });
});

describe('why a value is old', () => {
  const now = at('2026-11-25T12:00:00Z');

  it('the demo’s last AAPL bar (Friday 1 May 2026): every weekday from 4 May to 24 November 2026 since', () => {
    // 4 May to 15 November: 28 weeks (140 weekdays); 16 to 24 November: 7 more.
    expect(staleReason(US, '2026-05-01T20:00:00.000Z', now)).toBe(
      'last price 2026-05-01 20:00 UTC; 147 sessions since',
    );
  });

  it('a value of this morning, before New York opens, is not old', () => {
    expect(staleReason(US, '2026-11-24T21:00:00.000Z', now)).toBeNull();
  });

  it('crypto never closes: old after a day; unknown sessions after four days', () => {
    const crypto = { mic: null, assetType: 'crypto', currency: 'USD' } as const;
    expect(staleReason(crypto, '2026-11-24T13:00:00.000Z', now)).toBeNull();
    expect(staleReason(crypto, '2026-11-23T11:00:00.000Z', now)).toBe(
      'last price 2026-11-23 11:00 UTC; 2 days since',
    );
    const abroad = { mic: null, assetType: 'index', currency: 'EUR' } as const;
    expect(staleReason(abroad, '2026-11-21T12:00:00.000Z', now)).toBeNull();
    expect(staleReason(abroad, '2026-11-20T12:00:00.000Z', now)).toBe(
      'last price 2026-11-20 12:00 UTC; 5 days since',
    );
  });

  it('a window that ends before now is judged at its end', () => {
    expect(
      staleReason(US, '2026-05-01T20:00:00.000Z', at('2026-05-08T20:00:00Z'), 'last row', '2026-05-08'),
    ).toBe('last row 2026-05-01 20:00 UTC; 5 sessions to 2026-05-08');
  });
});
