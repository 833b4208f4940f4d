// A market's regular sessions: when the next one opens (a quote taken while it is closed stays fresh until
// then), when a day's closes (a daily bar's time), and how many opened after a value's time (whether it is
// stale). Times are local to the market, Monday to Friday unless said. Holidays are not known: on one, the
// quote is asked for again at the usual hour and answers still closed, and a holiday counts as a session.
import { addDays } from '../../kernel/dates.js';
import { keptPerOwner } from '../../kernel/kept.js';
import type { Resolved } from './resolve.js';

export interface Session {
  timeZone: string;
  /** Local opening and closing times of the regular session, HH:MM. */
  opens: string;
  closes: string;
  /** Days it opens, 0 Sunday … 6 Saturday. */
  days?: readonly number[];
}

const WEEKDAYS = [1, 2, 3, 4, 5];

/** Regular sessions by MIC; `US` stands for the US listings, which carry no MIC. */
const SESSIONS: Record<string, Session> = {
  US: { timeZone: 'America/New_York', opens: '09:30', closes: '16:00' },
  XLON: { timeZone: 'Europe/London', opens: '08:00', closes: '16:30' },
  XETR: { timeZone: 'Europe/Berlin', opens: '09:00', closes: '17:30' },
  XFRA: { timeZone: 'Europe/Berlin', opens: '08:00', closes: '20:00' },
  XPAR: { timeZone: 'Europe/Paris', opens: '09:00', closes: '17:30' },
  XAMS: { timeZone: 'Europe/Amsterdam', opens: '09:00', closes: '17:30' },
  XBRU: { timeZone: 'Europe/Brussels', opens: '09:00', closes: '17:30' },
  XLIS: { timeZone: 'Europe/Lisbon', opens: '08:00', closes: '17:30' },
  XMIL: { timeZone: 'Europe/Rome', opens: '09:00', closes: '17:30' },
  XMAD: { timeZone: 'Europe/Madrid', opens: '09:00', closes: '17:30' },
  XSWX: { timeZone: 'Europe/Zurich', opens: '09:00', closes: '17:30' },
  XSTO: { timeZone: 'Europe/Stockholm', opens: '09:00', closes: '17:30' },
  XCSE: { timeZone: 'Europe/Copenhagen', opens: '09:00', closes: '17:00' },
  XHEL: { timeZone: 'Europe/Helsinki', opens: '10:00', closes: '18:30' },
  XOSL: { timeZone: 'Europe/Oslo', opens: '09:00', closes: '16:20' },
  XWBO: { timeZone: 'Europe/Vienna', opens: '09:00', closes: '17:30' },
  XWAR: { timeZone: 'Europe/Warsaw', opens: '09:00', closes: '17:00' },
  XPRA: { timeZone: 'Europe/Prague', opens: '09:00', closes: '16:20' },
  XTKS: { timeZone: 'Asia/Tokyo', opens: '09:00', closes: '15:30' },
  XHKG: { timeZone: 'Asia/Hong_Kong', opens: '09:30', closes: '16:00' },
  XSHG: { timeZone: 'Asia/Shanghai', opens: '09:30', closes: '15:00' },
  XSHE: { timeZone: 'Asia/Shanghai', opens: '09:30', closes: '15:00' },
  XKRX: { timeZone: 'Asia/Seoul', opens: '09:00', closes: '15:30' },
  XKOS: { timeZone: 'Asia/Seoul', opens: '09:00', closes: '15:30' },
  XTAI: { timeZone: 'Asia/Taipei', opens: '09:00', closes: '13:30' },
  ROCO: { timeZone: 'Asia/Taipei', opens: '09:00', closes: '13:30' },
  XNSE: { timeZone: 'Asia/Kolkata', opens: '09:15', closes: '15:30' },
  XBOM: { timeZone: 'Asia/Kolkata', opens: '09:15', closes: '15:30' },
  XSES: { timeZone: 'Asia/Singapore', opens: '09:00', closes: '17:00' },
  XKLS: { timeZone: 'Asia/Kuala_Lumpur', opens: '09:00', closes: '17:00' },
  XASX: { timeZone: 'Australia/Sydney', opens: '10:00', closes: '16:00' },
  XNZE: { timeZone: 'Pacific/Auckland', opens: '10:00', closes: '16:45' },
  XTSE: { timeZone: 'America/Toronto', opens: '09:30', closes: '16:00' },
  XTSX: { timeZone: 'America/Toronto', opens: '09:30', closes: '16:00' },
  XMEX: { timeZone: 'America/Mexico_City', opens: '08:30', closes: '15:00' },
  BVMF: { timeZone: 'America/Sao_Paulo', opens: '10:00', closes: '17:00' },
  XBUE: { timeZone: 'America/Argentina/Buenos_Aires', opens: '11:00', closes: '17:00' },
  XJSE: { timeZone: 'Africa/Johannesburg', opens: '09:00', closes: '17:00' },
  XTAE: { timeZone: 'Asia/Jerusalem', opens: '09:59', closes: '17:25' },
};

/** Currencies trade from Sunday 17:00 New York to Friday 17:00. */
const CURRENCIES: Session = {
  timeZone: 'America/New_York',
  opens: '17:00',
  closes: '17:00',
  days: [0, 1, 2, 3, 4],
};
/** CME's electronic futures reopen at 18:00 New York, Sunday to Thursday. */
const FUTURES: Session = {
  timeZone: 'America/New_York',
  opens: '18:00',
  closes: '17:00',
  days: [0, 1, 2, 3, 4],
};

/** The session of a listing; null when its opening is not known (crypto never closes; indexes abroad). */
export function sessionOf(resolved: Pick<Resolved, 'mic' | 'assetType' | 'currency'>): Session | null {
  switch (resolved.assetType) {
    case 'currency':
      return CURRENCIES;
    case 'future':
      return FUTURES;
    case 'crypto':
      return null;
    case 'index':
      return resolved.currency === 'USD' ? (SESSIONS.US as Session) : null;
    default:
      return SESSIONS[resolved.mic ?? 'US'] ?? null;
  }
}

/** The first opening of `session` after `now`. */
export function nextOpen(session: Session, now: Date): Date {
  const [hour, minute] = session.opens.split(':').map(Number) as [number, number];
  const days = session.days ?? WEEKDAYS;
  const today = localDay(now.getTime(), session.timeZone);
  for (let ahead = 0; ahead <= 7; ahead += 1) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead));
    if (!days.includes(day.getUTCDay())) continue;
    const wall = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute);
    // The wall-clock time less the zone's offset then; the offset read again at the result covers a change.
    const guess = wall - offsetAt(wall, session.timeZone);
    const at = wall - offsetAt(guess, session.timeZone);
    if (at > now.getTime()) return new Date(at);
  }
  throw new Error(`no opening within a week for ${session.timeZone}`);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's clock at `t` as Intl reads it: the one costly step (microseconds a call), so offsets are kept. */
function readWallClock(t: number, timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(t))) parts[type] = Number(value);
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

/**
 * Zones change their offset on a quarter hour of UTC (every change in the time-zone database since standard
 * time was adopted), so an offset read once holds for its whole quarter hour: a request judging fifty listings'
 * values reads Intl a few times rather than hundreds.
 */
const QUARTER_HOUR_MS = 900_000;
const KEPT_OFFSETS = 100_000;
const offsets = new Map<string, number>();

/** How far the zone's clock is ahead of UTC at `t`, in milliseconds. */
function offsetAt(t: number, timeZone: string): number {
  const quarter = Math.floor(t / QUARTER_HOUR_MS);
  const key = `${timeZone} ${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const start = quarter * QUARTER_HOUR_MS;
    const c = readWallClock(start, timeZone);
    offset = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - start;
    if (offsets.size >= KEPT_OFFSETS) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** The zone's wall clock at `t`: UTC's fields of the instant moved by the zone's offset. */
function wallClock(t: number, timeZone: string) {
  const local = new Date(t + offsetAt(t, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

function localDay(t: number, timeZone: string) {
  const { year, month, day } = wallClock(t, timeZone);
  return { year, month, day };
}

const minutesOf = (hhmm: string) => {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  return hour * 60 + minute;
};

/** The instant a wall-clock time of `timeZone` names (the zone's offset read at that time). */
function instantOf(date: string, hhmm: string, timeZone: string): number {
  const minutes = minutesOf(hhmm);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, Math.floor(minutes / 60), minutes % 60);
  return wall - offsetAt(wall - offsetAt(wall, timeZone), timeZone);
}

/** When the regular session of the local date `date` (YYYY-MM-DD) closes: a daily bar's time. */
export function closeOf(session: Session, date: string): Date {
  return new Date(instantOf(date, session.closes, session.timeZone));
}

/** Closes written, by session and date: a bar's time is asked for on every call that answers it. */
const closes = keptPerOwner<Session, string>(20_000);

/** When a daily bar of this listing was true: its session's close, or midnight UTC where the market is not known. */
export function barClose(resolved: Pick<Resolved, 'mic' | 'assetType' | 'currency'>, date: string): string {
  const session = sessionOf(resolved);
  if (session) return closes(session, date, () => closeOf(session, date).toISOString());
  // A crypto day is a UTC day: its bar closes at the midnight that ends it, not the one that opens it.
  if (resolved.assetType === 'crypto') return `${addDays(date, 1)}T00:00:00.000Z`;
  return `${date}T00:00:00.000Z`;
}

/** Session days (by weekday; holidays are not known) from one UTC midnight to another, both included. */
function sessionDays(from: number, to: number, days: readonly number[]): number {
  const span = Math.round((to - from) / 86_400_000) + 1;
  if (span <= 0) return 0;
  let count = Math.floor(span / 7) * days.length;
  const first = new Date(from).getUTCDay();
  for (let i = 0; i < span % 7; i += 1) if (days.includes((first + i) % 7)) count += 1;
  return count;
}

/** Openings of the session after `from` and at or before `to`: sessions that should have made a newer value. */
export function openingsBetween(session: Session, from: Date, to: Date): number {
  if (to <= from) return 0;
  const days = session.days ?? WEEKDAYS;
  const open = minutesOf(session.opens);
  const local = (t: Date) => {
    const c = wallClock(t.getTime(), session.timeZone);
    const midnight = Date.UTC(c.year, c.month - 1, c.day);
    return {
      midnight,
      weekday: new Date(midnight).getUTCDay(),
      minute: c.hour * 60 + c.minute + c.second / 60,
    };
  };
  const a = local(from);
  const b = local(to);
  let count = sessionDays(a.midnight, b.midnight, days);
  // The opening of from's own day counts only after from; that of to's own day only at or before to.
  if (days.includes(a.weekday) && open <= a.minute) count -= 1;
  if (days.includes(b.weekday) && open > b.minute) count -= 1;
  return Math.max(0, count);
}

/** Markets that never close: a value is old after a day. Markets whose sessions are not known: after four. */
const ROUND_THE_CLOCK_MS = 86_400_000;
const UNKNOWN_SESSIONS_MS = 4 * 86_400_000;

const shownTime = (t: Date) => `${t.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Why a value of this listing taken at `asOf` is old at `now`, or null when it is not: a regular session has
 * opened since (which should have made a newer one), or, where the sessions are not known, too long has passed.
 */
export function staleReason(
  resolved: Pick<Resolved, 'mic' | 'assetType' | 'currency'>,
  asOf: string,
  now: Date,
  what = 'last price',
  /** Said of `now` when it is not the present: the end of a window asked for. */
  until?: string,
): string | null {
  const at = new Date(asOf);
  if (Number.isNaN(at.getTime())) return null;
  const session = sessionOf(resolved);
  if (!session) {
    const limit = resolved.assetType === 'crypto' ? ROUND_THE_CLOCK_MS : UNKNOWN_SESSIONS_MS;
    const days = Math.floor((now.getTime() - at.getTime()) / 86_400_000);
    return now.getTime() - at.getTime() > limit ? `${what} ${shownTime(at)}; ${days} days since` : null;
  }
  const sessions = openingsBetween(session, at, now);
  if (sessions === 0) return null;
  const sessionsShown = `${sessions} session${sessions === 1 ? '' : 's'}`;
  return `${what} ${shownTime(at)}; ${sessionsShown} ${until ? `to ${until}` : 'since'}`;
}
