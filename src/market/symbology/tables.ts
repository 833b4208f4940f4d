// Reference tables of the market-data API's ticker forms (spec: Ticker forms, Exchange codes, Index and
// yield tickers). Data, not logic: resolve.ts reads them.

export interface Venue {
  mic: string;
  exchange: string;
  /** Currency of prices in the service and exchange-suffixed forms (main units). */
  currency: string;
  /** Provider (exchange-suffixed) symbol suffix. */
  suffix: string;
  /** Terminal-form prices are in minor units: pence, cents, agorot. */
  minor?: { unit: string; factor: number };
}

export const VENUES: Record<string, Venue> = {
  XLON: {
    mic: 'XLON',
    exchange: 'London Stock Exchange',
    currency: 'GBP',
    suffix: '.L',
    minor: { unit: 'GBp', factor: 100 },
  },
  XETR: { mic: 'XETR', exchange: 'Xetra', currency: 'EUR', suffix: '.DE' },
  XFRA: { mic: 'XFRA', exchange: 'Frankfurt Stock Exchange', currency: 'EUR', suffix: '.F' },
  XPAR: { mic: 'XPAR', exchange: 'Euronext Paris', currency: 'EUR', suffix: '.PA' },
  XAMS: { mic: 'XAMS', exchange: 'Euronext Amsterdam', currency: 'EUR', suffix: '.AS' },
  XBRU: { mic: 'XBRU', exchange: 'Euronext Brussels', currency: 'EUR', suffix: '.BR' },
  XLIS: { mic: 'XLIS', exchange: 'Euronext Lisbon', currency: 'EUR', suffix: '.LS' },
  XMIL: { mic: 'XMIL', exchange: 'Borsa Italiana', currency: 'EUR', suffix: '.MI' },
  XMAD: { mic: 'XMAD', exchange: 'Bolsa de Madrid', currency: 'EUR', suffix: '.MC' },
  XSWX: { mic: 'XSWX', exchange: 'SIX Swiss Exchange', currency: 'CHF', suffix: '.SW' },
  XSTO: { mic: 'XSTO', exchange: 'Nasdaq Stockholm', currency: 'SEK', suffix: '.ST' },
  XCSE: { mic: 'XCSE', exchange: 'Nasdaq Copenhagen', currency: 'DKK', suffix: '.CO' },
  XHEL: { mic: 'XHEL', exchange: 'Nasdaq Helsinki', currency: 'EUR', suffix: '.HE' },
  XOSL: { mic: 'XOSL', exchange: 'Oslo Bors', currency: 'NOK', suffix: '.OL' },
  XWBO: { mic: 'XWBO', exchange: 'Wiener Borse', currency: 'EUR', suffix: '.VI' },
  XWAR: { mic: 'XWAR', exchange: 'Warsaw Stock Exchange', currency: 'PLN', suffix: '.WA' },
  XPRA: { mic: 'XPRA', exchange: 'Prague Stock Exchange', currency: 'CZK', suffix: '.PR' },
  XTKS: { mic: 'XTKS', exchange: 'Tokyo Stock Exchange', currency: 'JPY', suffix: '.T' },
  XHKG: { mic: 'XHKG', exchange: 'Hong Kong Exchanges', currency: 'HKD', suffix: '.HK' },
  XSHG: { mic: 'XSHG', exchange: 'Shanghai Stock Exchange', currency: 'CNY', suffix: '.SS' },
  XSHE: { mic: 'XSHE', exchange: 'Shenzhen Stock Exchange', currency: 'CNY', suffix: '.SZ' },
  XKRX: { mic: 'XKRX', exchange: 'Korea Exchange (KOSPI)', currency: 'KRW', suffix: '.KS' },
  XKOS: { mic: 'XKOS', exchange: 'Korea Exchange (KOSDAQ)', currency: 'KRW', suffix: '.KQ' },
  XTAI: { mic: 'XTAI', exchange: 'Taiwan Stock Exchange', currency: 'TWD', suffix: '.TW' },
  ROCO: { mic: 'ROCO', exchange: 'Taipei Exchange', currency: 'TWD', suffix: '.TWO' },
  XNSE: { mic: 'XNSE', exchange: 'National Stock Exchange of India', currency: 'INR', suffix: '.NS' },
  XBOM: { mic: 'XBOM', exchange: 'BSE', currency: 'INR', suffix: '.BO' },
  XSES: { mic: 'XSES', exchange: 'Singapore Exchange', currency: 'SGD', suffix: '.SI' },
  XKLS: { mic: 'XKLS', exchange: 'Bursa Malaysia', currency: 'MYR', suffix: '.KL' },
  XASX: { mic: 'XASX', exchange: 'Australian Securities Exchange', currency: 'AUD', suffix: '.AX' },
  XNZE: { mic: 'XNZE', exchange: 'New Zealand Exchange', currency: 'NZD', suffix: '.NZ' },
  XTSE: { mic: 'XTSE', exchange: 'Toronto Stock Exchange', currency: 'CAD', suffix: '.TO' },
  XTSX: { mic: 'XTSX', exchange: 'TSX Venture Exchange', currency: 'CAD', suffix: '.V' },
  XMEX: { mic: 'XMEX', exchange: 'Bolsa Mexicana de Valores', currency: 'MXN', suffix: '.MX' },
  BVMF: { mic: 'BVMF', exchange: 'B3', currency: 'BRL', suffix: '.SA' },
  XBUE: { mic: 'XBUE', exchange: 'Bolsa de Comercio de Buenos Aires', currency: 'ARS', suffix: '.BA' },
  XJSE: {
    mic: 'XJSE',
    exchange: 'Johannesburg Stock Exchange',
    currency: 'ZAR',
    suffix: '.JO',
    minor: { unit: 'ZAr', factor: 100 },
  },
  XTAE: {
    mic: 'XTAE',
    exchange: 'Tel Aviv Stock Exchange',
    currency: 'ILS',
    suffix: '.TA',
    minor: { unit: 'ILs', factor: 100 },
  },
};

export interface ExchangeCode {
  /** MICs in the order they are tried; US listings have none. */
  mics: string[];
  note?: string;
}

const US: ExchangeCode = { mics: [] };

/** Terminal exchange codes (spec table). A code not here is refused, never guessed. */
export const EXCHANGE_CODES: Record<string, ExchangeCode> = {
  US,
  UN: US,
  UW: US,
  UQ: US,
  UR: US,
  UA: US,
  UP: US,
  UF: US,
  UV: US,
  LN: { mics: ['XLON'] },
  GY: { mics: ['XETR'] },
  GR: { mics: ['XETR'] },
  GF: { mics: ['XFRA'] },
  FP: { mics: ['XPAR'] },
  NA: { mics: ['XAMS'] },
  BB: { mics: ['XBRU'] },
  PL: { mics: ['XLIS'] },
  IM: { mics: ['XMIL'] },
  SM: { mics: ['XMAD'], note: 'Madrid listings take the .MC suffix form' },
  SW: { mics: ['XSWX'] },
  SE: { mics: ['XSWX'] },
  SS: { mics: ['XSTO'] },
  DC: { mics: ['XCSE'] },
  FH: { mics: ['XHEL'] },
  NO: { mics: ['XOSL'] },
  AV: { mics: ['XWBO'] },
  PW: { mics: ['XWAR'] },
  CP: { mics: ['XPRA'] },
  JT: { mics: ['XTKS'] },
  JP: { mics: ['XTKS'] },
  HK: { mics: ['XHKG'] },
  CG: { mics: ['XSHG'] },
  CS: { mics: ['XSHE'] },
  KS: { mics: ['XKRX'] },
  KQ: { mics: ['XKOS'] },
  TT: {
    mics: ['XTAI', 'ROCO'],
    note: 'TT covers the Taiwan Stock Exchange, then the Taipei Exchange (over the counter)',
  },
  IN: { mics: ['XNSE'] },
  IS: { mics: ['XNSE'] },
  IB: { mics: ['XBOM'] },
  SP: { mics: ['XSES'], note: 'send the local exchange code, not the terminal code' },
  MK: { mics: ['XKLS'], note: 'send the numeric local code' },
  AU: { mics: ['XASX'] },
  NZ: { mics: ['XNZE'] },
  CN: { mics: ['XTSE', 'XTSX'], note: 'CN covers Toronto, then the TSX Venture Exchange' },
  CT: { mics: ['XTSE'] },
  CV: { mics: ['XTSX'] },
  MM: { mics: ['XMEX'] },
  BZ: { mics: ['BVMF'] },
  BS: { mics: ['BVMF'] },
  AR: { mics: ['XBUE'] },
  SJ: { mics: ['XJSE'] },
  IT: { mics: ['XTAE'] },
};

export interface IndexTicker {
  ticker: string;
  name: string;
  currency: string;
  note?: string;
}

/** Terminal "CODE Index" -> service ticker (spec: Index and yield tickers). */
export const INDEXES: Record<string, IndexTicker> = {
  SPX: { ticker: '^GSPC', name: 'S&P 500', currency: 'USD' },
  INDU: { ticker: '^DJI', name: 'Dow Jones Industrial Average', currency: 'USD' },
  CCMP: { ticker: '^IXIC', name: 'Nasdaq Composite', currency: 'USD' },
  NDX: { ticker: '^NDX', name: 'Nasdaq-100', currency: 'USD' },
  RTY: { ticker: '^RUT', name: 'Russell 2000', currency: 'USD' },
  VIX: { ticker: '^VIX', name: 'Cboe Volatility Index', currency: 'USD' },
  UKX: { ticker: '^FTSE', name: 'FTSE 100', currency: 'GBP' },
  DAX: { ticker: '^GDAXI', name: 'DAX', currency: 'EUR' },
  CAC: { ticker: '^FCHI', name: 'CAC 40', currency: 'EUR' },
  SX5E: { ticker: '^STOXX50E', name: 'EURO STOXX 50', currency: 'EUR' },
  SMI: { ticker: '^SSMI', name: 'Swiss Market Index', currency: 'CHF' },
  AEX: { ticker: '^AEX', name: 'AEX', currency: 'EUR' },
  IBEX: { ticker: '^IBEX', name: 'IBEX 35', currency: 'EUR' },
  NKY: { ticker: '^N225', name: 'Nikkei 225', currency: 'JPY' },
  HSI: { ticker: '^HSI', name: 'Hang Seng', currency: 'HKD' },
  KOSPI: { ticker: '^KS11', name: 'KOSPI', currency: 'KRW' },
  TWSE: { ticker: '^TWII', name: 'TAIEX', currency: 'TWD' },
  SENSEX: { ticker: '^BSESN', name: 'S&P BSE Sensex', currency: 'INR' },
  NIFTY: { ticker: '^NSEI', name: 'Nifty 50', currency: 'INR' },
  FSSTI: { ticker: '^STI', name: 'Straits Times Index', currency: 'SGD' },
  AS51: { ticker: '^AXJO', name: 'S&P/ASX 200', currency: 'AUD' },
  SPTSX: { ticker: '^GSPTSE', name: 'S&P/TSX Composite', currency: 'CAD' },
  MEXBOL: { ticker: '^MXX', name: 'S&P/BMV IPC', currency: 'MXN' },
  IBOV: { ticker: '^BVSP', name: 'Ibovespa', currency: 'BRL' },
  DXY: { ticker: 'DX-Y.NYB', name: 'US Dollar Index', currency: 'USD' },
  USGG5YR: { ticker: '^FVX', name: 'US Treasury 5-year yield', currency: 'USD', note: 'quoted in percent' },
  USGG10YR: { ticker: '^TNX', name: 'US Treasury 10-year yield', currency: 'USD', note: 'quoted in percent' },
  USGG30YR: { ticker: '^TYX', name: 'US Treasury 30-year yield', currency: 'USD', note: 'quoted in percent' },
  // Treasury's own daily figures (the treasury-rates dataset): end of day, no intraday source.
  USGG2YR: {
    ticker: '^UST2Y',
    name: 'US Treasury 2-year par yield',
    currency: 'USD',
    note: 'quoted in percent; end of day, as Treasury publishes it',
  },
  USGG3M: {
    ticker: '^UST13W',
    name: 'US Treasury 13-week bill, coupon equivalent',
    currency: 'USD',
    note: 'quoted in percent; end of day, as Treasury publishes it',
  },
};

/** Terminal index tickers that are not served, with the reason given to the caller. */
export const INDEXES_NOT_SERVED: Record<string, string> = {
  GT10: 'not served: generic government bond prices are not available',
  XAU: 'not served: use GC1 Comdty (gold front month)',
  XAG: 'not served: use SI1 Comdty (silver front month)',
};

/** Index futures that take the Index key (rule 4), rolled at expiry. */
export const INDEX_FUTURES: Record<string, { name: string; provider: string }> = {
  ES: { name: 'E-mini S&P 500 futures', provider: 'ES=F' },
  NQ: { name: 'E-mini Nasdaq-100 futures', provider: 'NQ=F' },
  RTY: { name: 'E-mini Russell 2000 futures', provider: 'RTY=F' },
  DM: { name: 'E-mini Dow futures', provider: 'YM=F' },
  UX: { name: 'Cboe VIX futures', provider: 'VX=F' },
};

/** Commodity futures roots of the Comdty key: terminal root -> provider root, venue and currency. */
export const COMMODITY_ROOTS: Record<
  string,
  { name: string; provider: string; exchange: string; mic: string; currency: string }
> = {
  CL: { name: 'WTI crude oil futures', provider: 'CL', exchange: 'NYMEX', mic: 'XNYM', currency: 'USD' },
  CO: {
    name: 'Brent crude oil futures',
    provider: 'BZ',
    exchange: 'ICE Futures Europe',
    mic: 'IFEU',
    currency: 'USD',
  },
  NG: {
    name: 'Henry Hub natural gas futures',
    provider: 'NG',
    exchange: 'NYMEX',
    mic: 'XNYM',
    currency: 'USD',
  },
  HO: { name: 'NY Harbor ULSD futures', provider: 'HO', exchange: 'NYMEX', mic: 'XNYM', currency: 'USD' },
  XB: { name: 'RBOB gasoline futures', provider: 'RB', exchange: 'NYMEX', mic: 'XNYM', currency: 'USD' },
  GC: { name: 'Gold futures', provider: 'GC', exchange: 'COMEX', mic: 'XCEC', currency: 'USD' },
  SI: { name: 'Silver futures', provider: 'SI', exchange: 'COMEX', mic: 'XCEC', currency: 'USD' },
  HG: { name: 'Copper futures', provider: 'HG', exchange: 'COMEX', mic: 'XCEC', currency: 'USD' },
  PL: { name: 'Platinum futures', provider: 'PL', exchange: 'NYMEX', mic: 'XNYM', currency: 'USD' },
  PA: { name: 'Palladium futures', provider: 'PA', exchange: 'NYMEX', mic: 'XNYM', currency: 'USD' },
  C: { name: 'Corn futures', provider: 'ZC', exchange: 'CBOT', mic: 'XCBT', currency: 'USD' },
  W: { name: 'Wheat futures', provider: 'ZW', exchange: 'CBOT', mic: 'XCBT', currency: 'USD' },
  S: { name: 'Soybean futures', provider: 'ZS', exchange: 'CBOT', mic: 'XCBT', currency: 'USD' },
};

/** Currencies quoted as units of USD per one unit (XXXUSD); every other currency is quoted as USDXXX. */
export const QUOTED_PER_UNIT = new Set(['EUR', 'GBP', 'AUD', 'NZD']);

const MINOR_SUFFIXES = Object.values(VENUES).flatMap((v) => (v.minor ? [v.suffix] : []));

/** Whether a provider symbol lists on a venue quoted in minor units (where 100× unit slips happen). */
export function quotedInMinorUnits(symbol: string): boolean {
  return MINOR_SUFFIXES.some((suffix) => symbol.endsWith(suffix));
}

/** Minor units, as the venues above and upstreams write them, to the ISO code of their main unit. */
const MAIN_UNITS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.values(VENUES).flatMap((v) => (v.minor ? [[v.minor.unit, v.currency]] : []))),
  GBX: 'GBP',
  ZAc: 'ZAR',
  ILA: 'ILS',
};

/** The ISO code of a currency's main unit: GBp → GBP; a main unit is itself. */
export const mainUnit = (code: string): string => MAIN_UNITS[code] ?? code;
