// When a market's regular session next opens, so that a quote taken while it is closed stays fresh until then.
// Opening times are local to the market, Monday to Friday unless said. Holidays are not known: on one, the
// quote is asked for again at the usual hour, answers still closed, and is kept until the next opening after.
import type { Resolved } from './resolve.js';

export interface Session {
  timeZone: string;
  /** Local opening time, HH:MM. */
  opens: string;
  /** Days it opens, 0 Sunday … 6 Saturday. */
  days?: readonly number[];
}

const WEEKDAYS = [1, 2, 3, 4, 5];

/** Regular sessions by MIC; `US` stands for the US listings, which carry no MIC. */
const SESSIONS: Record<string, Session> = {
  US: { timeZone: 'America/New_York', opens: '09:30' },
  XLON: { timeZone: 'Europe/London', opens: '08:00' },
  XETR: { timeZone: 'Europe/Berlin', opens: '09:00' },
  XFRA: { timeZone: 'Europe/Berlin', opens: '08:00' },
  XPAR: { timeZone: 'Europe/Paris', opens: '09:00' },
  XAMS: { timeZone: 'Europe/Amsterdam', opens: '09:00' },
  XBRU: { timeZone: 'Europe/Brussels', opens: '09:00' },
  XLIS: { timeZone: 'Europe/Lisbon', opens: '08:00' },
  XMIL: { timeZone: 'Europe/Rome', opens: '09:00' },
  XMAD: { timeZone: 'Europe/Madrid', opens: '09:00' },
  XSWX: { timeZone: 'Europe/Zurich', opens: '09:00' },
  XSTO: { timeZone: 'Europe/Stockholm', opens: '09:00' },
  XCSE: { timeZone: 'Europe/Copenhagen', opens: '09:00' },
  XHEL: { timeZone: 'Europe/Helsinki', opens: '10:00' },
  XOSL: { timeZone: 'Europe/Oslo', opens: '09:00' },
  XWBO: { timeZone: 'Europe/Vienna', opens: '09:00' },
  XWAR: { timeZone: 'Europe/Warsaw', opens: '09:00' },
  XPRA: { timeZone: 'Europe/Prague', opens: '09:00' },
  XTKS: { timeZone: 'Asia/Tokyo', opens: '09:00' },
  XHKG: { timeZone: 'Asia/Hong_Kong', opens: '09:30' },
  XSHG: { timeZone: 'Asia/Shanghai', opens: '09:30' },
  XSHE: { timeZone: 'Asia/Shanghai', opens: '09:30' },
  XKRX: { timeZone: 'Asia/Seoul', opens: '09:00' },
  XKOS: { timeZone: 'Asia/Seoul', opens: '09:00' },
  XTAI: { timeZone: 'Asia/Taipei', opens: '09:00' },
  ROCO: { timeZone: 'Asia/Taipei', opens: '09:00' },
  XNSE: { timeZone: 'Asia/Kolkata', opens: '09:15' },
  XBOM: { timeZone: 'Asia/Kolkata', opens: '09:15' },
  XSES: { timeZone: 'Asia/Singapore', opens: '09:00' },
  XKLS: { timeZone: 'Asia/Kuala_Lumpur', opens: '09:00' },
  XASX: { timeZone: 'Australia/Sydney', opens: '10:00' },
  XNZE: { timeZone: 'Pacific/Auckland', opens: '10:00' },
  XTSE: { timeZone: 'America/Toronto', opens: '09:30' },
  XTSX: { timeZone: 'America/Toronto', opens: '09:30' },
  XMEX: { timeZone: 'America/Mexico_City', opens: '08:30' },
  BVMF: { timeZone: 'America/Sao_Paulo', opens: '10:00' },
  XBUE: { timeZone: 'America/Argentina/Buenos_Aires', opens: '11:00' },
  XJSE: { timeZone: 'Africa/Johannesburg', opens: '09:00' },
  XTAE: { timeZone: 'Asia/Jerusalem', opens: '09:59' },
};

/** Currencies trade from Sunday 17:00 New York to Friday 17:00. */
const CURRENCIES: Session = { timeZone: 'America/New_York', opens: '17:00', days: [0, 1, 2, 3, 4] };
/** CME's electronic futures reopen at 18:00 New York, Sunday to Thursday. */
const FUTURES: Session = { timeZone: 'America/New_York', opens: '18:00', days: [0, 1, 2, 3, 4] };

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

function wallClock(t: number, timeZone: string) {
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

function localDay(t: number, timeZone: string) {
  const { year, month, day } = wallClock(t, timeZone);
  return { year, month, day };
}

/** How far the zone's clock is ahead of UTC at `t`, in milliseconds. */
function offsetAt(t: number, timeZone: string): number {
  const c = wallClock(t, timeZone);
  const wall = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return wall - (t - (t % 1000));
}
