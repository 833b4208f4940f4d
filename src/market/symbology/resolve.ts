// Reading a ticker in any of its three forms (service, exchange-suffixed, terminal) into one resolution.
// Pure: no data access. Whether the instrument exists is the provider's answer, not this module's.
import {
  COMMODITY_ROOTS,
  EXCHANGE_CODES,
  INDEX_FUTURES,
  INDEXES,
  INDEXES_NOT_SERVED,
  QUOTED_PER_UNIT,
  VENUES,
  type Venue,
} from './tables.js';

export type Dialect = 'service' | 'suffix' | 'terminal';
export type AssetType = 'equity' | 'fund' | 'index' | 'future' | 'currency' | 'crypto';

export interface Resolved {
  /** The service's own form. */
  ticker: string;
  /** The provider's symbol (exchange-suffixed form). */
  symbol: string;
  exchange: string;
  mic: string | null;
  dialect: Dialect;
  assetType: AssetType;
  name: string;
  /** Price currency; minor units (GBp, ZAr, ILs) for terminal-form listings priced in them. */
  currency: string;
  note?: string;
  /** Service tickers to try, in order, when the first is not found (CN, TT). */
  fallbacks?: string[];
  /** Prices are multiplied by this to answer in `currency` (100 for pence, cents, agorot). */
  priceFactor?: number;
}

/** What an answer shows of a resolution: the lookup aids (fallbacks, price factor) stay inside. */
export type ShownResolved = Omit<Resolved, 'fallbacks' | 'priceFactor'>;

export function shown(resolved: Resolved): ShownResolved {
  const { fallbacks: _fallbacks, priceFactor: _factor, ...rest } = resolved;
  return rest;
}

export type Resolution =
  | { input: string; status: 'ok'; resolved: Resolved }
  | { input: string; status: 'error'; error: { code: 'not_found'; message: string } };

const refuse = (input: string, message: string): Resolution => ({
  input,
  status: 'error',
  error: { code: 'not_found', message },
});
const ok = (input: string, resolved: Resolved): Resolution => ({ input, status: 'ok', resolved });

const YELLOW_KEYS = /^(.+?)\s+(equity|comdty|index|curncy|govt|corp|mtge|muni|pfd)$/i;
const TICKER_CHARS = /^[A-Z0-9.\-^=:/&]{1,32}$/;
const MONTH_CODES = 'FGHJKMNQUVXZ';
const SUFFIXES = new Map(Object.values(VENUES).map((v) => [v.suffix, v] as [string, Venue]));

function venueListing(
  input: string,
  local: string,
  venue: Venue,
  dialect: Dialect,
  extra: Partial<Resolved> = {},
): Resolution {
  const minor = dialect === 'terminal' ? venue.minor : undefined;
  return ok(input, {
    ticker: `${local}:${venue.mic}`,
    symbol: `${local}${venue.suffix}`,
    exchange: venue.exchange,
    mic: venue.mic,
    dialect,
    assetType: 'equity',
    name: local,
    currency: minor ? minor.unit : venue.currency,
    ...(minor
      ? {
          priceFactor: minor.factor,
          note: `prices in ${minor.unit} (minor units), as the terminal form quotes them`,
        }
      : {}),
    ...extra,
  });
}

function terminalEquity(input: string, body: string): Resolution {
  const parts = body.trim().split(/\s+/);
  if (parts.length < 2) return refuse(input, 'a terminal equity ticker is "TICKER <exchange code> Equity"');
  const code = (parts.pop() as string).toUpperCase();
  const local = parts.join(' ').toUpperCase().replaceAll('/', '-');
  const listing = EXCHANGE_CODES[code];
  if (!listing)
    return refuse(
      input,
      `exchange code "${code}" is not one this service reads; it is refused rather than guessed`,
    );
  if (!TICKER_CHARS.test(local)) return refuse(input, `"${local}" is not a ticker`);
  if (listing.mics.length === 0) {
    return ok(input, {
      ticker: local,
      symbol: local,
      exchange: '',
      mic: null,
      dialect: 'terminal',
      assetType: 'equity',
      name: local,
      currency: 'USD',
    });
  }
  const [first, ...rest] = listing.mics.map((mic) => VENUES[mic]!);
  const fallbacks = rest.map((v) => `${local}:${v.mic}`);
  const resolution = venueListing(
    input,
    local,
    first as Venue,
    'terminal',
    fallbacks.length ? { fallbacks } : {},
  );
  if (resolution.status === 'ok' && listing.note) {
    resolution.resolved.note = [resolution.resolved.note, listing.note].filter(Boolean).join('; ');
  }
  return resolution;
}

function terminalIndex(input: string, body: string): Resolution {
  const code = body.trim().toUpperCase();
  const notServed = INDEXES_NOT_SERVED[code];
  if (notServed) return refuse(input, `${code} Index is ${notServed}`);
  const index = INDEXES[code];
  if (index) {
    return ok(input, {
      ticker: index.ticker,
      symbol: index.ticker,
      exchange: '',
      mic: null,
      dialect: 'terminal',
      assetType: 'index',
      name: index.name,
      currency: index.currency,
      ...(index.note ? { note: index.note } : {}),
    });
  }
  const generic = /^([A-Z]{2,3})([1-9])$/.exec(code);
  const future = generic ? INDEX_FUTURES[generic[1]!] : undefined;
  if (generic && future) {
    return ok(input, {
      ticker: code,
      symbol: generic[2] === '1' ? future.provider : code,
      exchange: '',
      mic: null,
      dialect: 'terminal',
      assetType: 'future',
      name: `${future.name}, generic ${generic[2]}`,
      currency: 'USD',
      note: 'index future generic; rolls at expiry',
    });
  }
  return refuse(input, `"${code} Index" is not an index, yield or index future this service reads`);
}

function commodity(input: string, body: string, dialect: Dialect): Resolution {
  const code = body.trim().toUpperCase();
  const generic = /^([A-Z]{1,2})([1-9])$/.exec(code);
  if (generic) {
    const root = COMMODITY_ROOTS[generic[1]!];
    if (!root) return refuse(input, `"${generic[1]}" is not a futures root this service reads`);
    const n = generic[2]!;
    // The terminal generic rolls at expiry (read from the settlement archive: suffix E); the service's own
    // generic rolls when the next contract's open interest passes the front one.
    const terminal = dialect === 'terminal';
    return ok(input, {
      ticker: terminal ? `${generic[1]}${n}E` : code,
      symbol: n === '1' ? `${root.provider}=F` : `${root.provider}${n}`,
      exchange: root.exchange,
      mic: root.mic,
      dialect,
      assetType: 'future',
      name: `${root.name}, generic ${n}`,
      currency: root.currency,
      note: terminal
        ? 'front-month generic from the settlement archive; rolls at expiry'
        : "rolls when the next contract's open interest passes it",
    });
  }
  const contract = /^([A-Z]{1,2})([A-Z])(\d{1,2})$/.exec(code);
  if (contract && MONTH_CODES.includes(contract[2]!) && COMMODITY_ROOTS[contract[1]!]) {
    const root = COMMODITY_ROOTS[contract[1] as string]!;
    return ok(input, {
      ticker: code,
      // A one-digit year is read in the 2020s (CLZ5 -> December 2025).
      symbol: `${root.provider}${contract[2]}${(contract[3]!).padStart(2, '2')}`,
      exchange: root.exchange,
      mic: root.mic,
      dialect,
      assetType: 'future',
      name: `${root.name}, ${contract[2]}${contract[3]}`,
      currency: root.currency,
      note: 'a single contract month',
    });
  }
  return refuse(
    input,
    `"${code} Comdty" is not a generic (ROOT + number) or a contract (ROOT + month + year) this service reads`,
  );
}

function currencyPair(input: string, pair: string, dialect: Dialect): Resolution {
  return ok(input, {
    ticker: `${pair}=X`,
    symbol: `${pair}=X`,
    exchange: '',
    mic: null,
    dialect,
    assetType: 'currency',
    name: `${pair.slice(0, 3)}/${pair.slice(3)}`,
    currency: pair.slice(3),
  });
}

/** Yahoo's CCY=X: dollars in CCY, the same rate as USDCCY=X, kept under the symbol it was sent as. */
function dollarShorthand(input: string, code: string): Resolution {
  if (code === 'USD') return refuse(input, '"USD=X" names no rate; send a pair such as EURUSD=X');
  return ok(input, {
    ticker: `${code}=X`,
    symbol: `${code}=X`,
    exchange: '',
    mic: null,
    dialect: 'suffix',
    assetType: 'currency',
    name: `USD/${code}`,
    currency: code,
    note: `dollars in ${code}, the rate of USD${code}=X`,
  });
}

function terminalCurrency(input: string, body: string): Resolution {
  const code = body.trim().toUpperCase();
  if (/^[A-Z]{6}$/.test(code)) return currencyPair(input, code, 'terminal');
  if (/^[A-Z]{3}$/.test(code)) {
    if (code === 'USD') return refuse(input, '"USD Curncy" names no rate; send a pair such as EURUSD Curncy');
    return currencyPair(input, QUOTED_PER_UNIT.has(code) ? `${code}USD` : `USD${code}`, 'terminal');
  }
  return refuse(input, `"${code} Curncy" is not a currency or a currency pair`);
}

function suffixed(input: string, text: string): Resolution | null {
  if (text.startsWith('^')) {
    const known = Object.values(INDEXES).find((i) => i.ticker === text);
    return ok(input, {
      ticker: text,
      symbol: text,
      exchange: '',
      mic: null,
      dialect: 'suffix',
      assetType: 'index',
      name: known?.name ?? text,
      currency: known?.currency ?? 'USD',
      ...(known?.note ? { note: known.note } : {}),
    });
  }
  if (text === 'DX-Y.NYB') return withDialect(terminalIndex(input, 'DXY'), 'suffix');
  if (/^[A-Z]{6}=X$/.test(text)) return currencyPair(input, text.slice(0, 6), 'suffix');
  if (/^[A-Z]{3}=X$/.test(text)) return dollarShorthand(input, text.slice(0, 3));
  if (/^[A-Z]{1,3}=F$/.test(text)) {
    const root = Object.entries(COMMODITY_ROOTS).find(([, r]) => r.provider === text.slice(0, -2))?.[1];
    const index = Object.values(INDEX_FUTURES).find((f) => f.provider === text);
    return ok(input, {
      ticker: text,
      symbol: text,
      exchange: root?.exchange ?? '',
      mic: root?.mic ?? null,
      dialect: 'suffix',
      assetType: 'future',
      name: root ? `${root.name}, front month` : (index?.name ?? text),
      currency: 'USD',
      note: 'front-month future',
    });
  }
  const dot = text.lastIndexOf('.');
  if (dot > 0) {
    const venue = SUFFIXES.get(text.slice(dot));
    if (!venue)
      return refuse(
        input,
        `exchange suffix "${text.slice(dot)}" is not one this service reads; it is refused rather than guessed`,
      );
    return venueListing(input, text.slice(0, dot), venue, 'suffix');
  }
  return null;
}

function serviceForm(input: string, text: string): Resolution {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const venue = VENUES[text.slice(colon + 1)];
    if (!venue) return refuse(input, `market "${text.slice(colon + 1)}" is not one this service reads`);
    return venueListing(input, text.slice(0, colon), venue, 'service');
  }
  const generic = /^([A-Z]{1,3})([1-9])$/.exec(text);
  if (generic && COMMODITY_ROOTS[generic[1]!]) return commodity(input, text, 'service');
  if (generic && INDEX_FUTURES[generic[1]!]) return withDialect(terminalIndex(input, text), 'service');
  const crypto = /^[A-Z0-9]{2,10}-(USD|EUR|GBP|USDT)$/.test(text);
  return ok(input, {
    ticker: text,
    symbol: text,
    exchange: '',
    mic: null,
    dialect: 'service',
    assetType: crypto ? 'crypto' : 'equity',
    name: text,
    currency: crypto ? text.split('-')[1]! : 'USD',
  });
}

function withDialect(resolution: Resolution, dialect: Dialect): Resolution {
  return resolution.status === 'ok'
    ? { ...resolution, resolved: { ...resolution.resolved, dialect } }
    : resolution;
}

export function resolveTicker(input: string): Resolution {
  const raw = input.trim();
  if (!raw) return refuse(input, 'empty ticker');
  const terminal = YELLOW_KEYS.exec(raw);
  if (terminal) {
    const [, body = '', key = ''] = terminal;
    switch (key.toLowerCase()) {
      case 'equity':
        return terminalEquity(input, body);
      case 'index':
        return terminalIndex(input, body);
      case 'comdty':
        return commodity(input, body, 'terminal');
      case 'curncy':
        return terminalCurrency(input, body);
      default:
        return refuse(
          input,
          'government bonds, corporate bonds and other Govt or Corp securities are not served',
        );
    }
  }
  const text = raw.toUpperCase();
  if (!TICKER_CHARS.test(text))
    return refuse(input, `"${raw}" is not a ticker in any form this service reads`);
  return suffixed(input, text) ?? serviceForm(input, text);
}
