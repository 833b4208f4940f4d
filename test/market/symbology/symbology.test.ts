// Spec, market-data API: Ticker forms, Exchange codes, Index and yield tickers, the not-served lists and the
// rules on generics, fallbacks and minor units. Every table row has a test that names it.
import { describe, expect, it } from 'vitest';
import { type Resolved, resolveTicker } from '../../../src/market/symbology/resolve.js';

const resolved = (input: string): Resolved => {
  const r = resolveTicker(input);
  if (r.status !== 'ok') throw new Error(`${input}: ${r.error.message}`);
  expect(r.input).toBe(input);
  return r.resolved;
};
const refused = (input: string): string => {
  const r = resolveTicker(input);
  expect(r.status).toBe('error');
  if (r.status !== 'error') throw new Error('resolved');
  expect(r.error.code).toBe('not_found');
  return r.error.message;
};

// [terminal codes, service form, mic, price currency in the terminal form]
const EXCHANGES: [string[], string | null, string][] = [
  [['US', 'UN', 'UW', 'UQ', 'UR', 'UA', 'UP', 'UF', 'UV'], null, 'USD'],
  [['LN'], 'XLON', 'GBp'],
  [['GY', 'GR'], 'XETR', 'EUR'],
  [['GF'], 'XFRA', 'EUR'],
  [['FP'], 'XPAR', 'EUR'],
  [['NA'], 'XAMS', 'EUR'],
  [['BB'], 'XBRU', 'EUR'],
  [['PL'], 'XLIS', 'EUR'],
  [['IM'], 'XMIL', 'EUR'],
  [['SM'], 'XMAD', 'EUR'],
  [['SW', 'SE'], 'XSWX', 'CHF'],
  [['SS'], 'XSTO', 'SEK'],
  [['DC'], 'XCSE', 'DKK'],
  [['FH'], 'XHEL', 'EUR'],
  [['NO'], 'XOSL', 'NOK'],
  [['AV'], 'XWBO', 'EUR'],
  [['PW'], 'XWAR', 'PLN'],
  [['CP'], 'XPRA', 'CZK'],
  [['JT', 'JP'], 'XTKS', 'JPY'],
  [['HK'], 'XHKG', 'HKD'],
  [['CG'], 'XSHG', 'CNY'],
  [['CS'], 'XSHE', 'CNY'],
  [['KS'], 'XKRX', 'KRW'],
  [['KQ'], 'XKOS', 'KRW'],
  [['TT'], 'XTAI', 'TWD'],
  [['IN', 'IS'], 'XNSE', 'INR'],
  [['IB'], 'XBOM', 'INR'],
  [['SP'], 'XSES', 'SGD'],
  [['MK'], 'XKLS', 'MYR'],
  [['AU'], 'XASX', 'AUD'],
  [['NZ'], 'XNZE', 'NZD'],
  [['CN'], 'XTSE', 'CAD'],
  [['CT'], 'XTSE', 'CAD'],
  [['CV'], 'XTSX', 'CAD'],
  [['MM'], 'XMEX', 'MXN'],
  [['BZ', 'BS'], 'BVMF', 'BRL'],
  [['AR'], 'XBUE', 'ARS'],
  [['SJ'], 'XJSE', 'ZAr'],
  [['IT'], 'XTAE', 'ILs'],
];

describe('exchange codes', () => {
  for (const [codes, mic, currency] of EXCHANGES) {
    for (const code of codes) {
      it(`${code} -> ${mic ? `TICKER:${mic}` : 'TICKER (US listing)'}`, () => {
        const r = resolved(`ABC ${code} Equity`);
        expect(r).toMatchObject({ dialect: 'terminal', assetType: 'equity', currency });
        expect(r.ticker).toBe(mic ? `ABC:${mic}` : 'ABC');
        expect(r.mic).toBe(mic);
      });
    }
  }

  it('refuses an exchange code not in the table, rather than guessing', () => {
    for (const code of ['XX', 'LS', 'GB', 'Q'])
      expect(refused(`ABC ${code} Equity`)).toMatch(/not one this service reads/);
  });

  it('CN covers Toronto, then the venture board', () => {
    expect(resolved('SHOP CN Equity')).toMatchObject({ ticker: 'SHOP:XTSE', fallbacks: ['SHOP:XTSX'] });
  });

  it('TT covers Taiwan, then over the counter', () => {
    expect(resolved('2330 TT Equity')).toMatchObject({
      ticker: '2330:XTAI',
      symbol: '2330.TW',
      fallbacks: ['2330:ROCO'],
    });
  });

  it('SP and MK say which local code to send', () => {
    expect(resolved('D05 SP Equity').note).toMatch(/local exchange code/);
    expect(resolved('1155 MK Equity').note).toMatch(/numeric local code/);
  });

  it('a terminal ticker may contain a slash', () => {
    expect(resolved('BRK/B US Equity')).toMatchObject({ ticker: 'BRK-B', symbol: 'BRK-B' });
    expect(resolved('BT/A LN Equity')).toMatchObject({ ticker: 'BT-A:XLON', symbol: 'BT-A.L' });
  });

  it('reads the keys in any letter case', () => {
    expect(resolved('aapl us equity').ticker).toBe('AAPL');
  });
});

describe('the pence rule', () => {
  it('terminal-form London, Johannesburg and Tel Aviv listings answer in minor units', () => {
    expect(resolved('BARC LN Equity')).toMatchObject({ currency: 'GBp', priceFactor: 100, symbol: 'BARC.L' });
    expect(resolved('NPN SJ Equity')).toMatchObject({ currency: 'ZAr', priceFactor: 100 });
    expect(resolved('TEVA IT Equity')).toMatchObject({ currency: 'ILs', priceFactor: 100 });
  });

  it('the service and exchange-suffixed forms answer in main units', () => {
    const suffix = resolved('BARC.L');
    expect(suffix).toMatchObject({ ticker: 'BARC:XLON', currency: 'GBP', dialect: 'suffix' });
    expect(suffix.priceFactor).toBeUndefined();
    const service = resolved('BARC:XLON');
    expect(service).toMatchObject({ currency: 'GBP', dialect: 'service', symbol: 'BARC.L' });
    expect(service.priceFactor).toBeUndefined();
    expect(resolved('NPN.JO').currency).toBe('ZAR');
    expect(resolved('TEVA.TA').currency).toBe('ILS');
  });
});

// [terminal code, service ticker]
const INDEXES: [string, string][] = [
  ['SPX', '^GSPC'],
  ['INDU', '^DJI'],
  ['CCMP', '^IXIC'],
  ['NDX', '^NDX'],
  ['RTY', '^RUT'],
  ['VIX', '^VIX'],
  ['UKX', '^FTSE'],
  ['DAX', '^GDAXI'],
  ['CAC', '^FCHI'],
  ['SX5E', '^STOXX50E'],
  ['SMI', '^SSMI'],
  ['AEX', '^AEX'],
  ['IBEX', '^IBEX'],
  ['NKY', '^N225'],
  ['HSI', '^HSI'],
  ['KOSPI', '^KS11'],
  ['TWSE', '^TWII'],
  ['SENSEX', '^BSESN'],
  ['NIFTY', '^NSEI'],
  ['FSSTI', '^STI'],
  ['AS51', '^AXJO'],
  ['SPTSX', '^GSPTSE'],
  ['MEXBOL', '^MXX'],
  ['IBOV', '^BVSP'],
  ['DXY', 'DX-Y.NYB'],
  ['USGG5YR', '^FVX'],
  ['USGG10YR', '^TNX'],
  ['USGG30YR', '^TYX'],
  // Treasury's own end-of-day figures, from the treasury-rates dataset.
  ['USGG2YR', '^UST2Y'],
  ['USGG3M', '^UST13W'],
];

describe('index and yield tickers', () => {
  for (const [code, ticker] of INDEXES) {
    it(`${code} Index -> ${ticker}`, () => {
      expect(resolved(`${code} Index`)).toMatchObject({ ticker, assetType: 'index', dialect: 'terminal' });
    });
  }

  it('yields are quoted in percent', () => {
    for (const code of ['USGG5YR', 'USGG10YR', 'USGG30YR', 'USGG2YR', 'USGG3M'])
      expect(resolved(`${code} Index`).note).toMatch(/percent/);
    expect(resolved('USGG2YR Index').note).toMatch(/end of day/);
  });

  const NOT_SERVED: [string, RegExp][] = [
    ['GT10', /generic government bond/],
    ['XAU', /GC1 Comdty/],
    ['XAG', /SI1 Comdty/],
  ];
  for (const [code, reason] of NOT_SERVED) {
    it(`${code} Index is not served, with its reason`, () => {
      expect(refused(`${code} Index`)).toMatch(reason);
    });
  }

  it('the exchange-suffixed forms of the indexes', () => {
    expect(resolved('^GSPC')).toMatchObject({
      ticker: '^GSPC',
      name: 'S&P 500',
      dialect: 'suffix',
      assetType: 'index',
    });
    expect(resolved('DX-Y.NYB')).toMatchObject({ ticker: 'DX-Y.NYB', dialect: 'suffix' });
  });
});

describe('generics', () => {
  it('CL1 Comdty is the terminal front-month generic: it reads as CL1E and rolls at expiry', () => {
    expect(resolved('CL1 Comdty')).toMatchObject({
      ticker: 'CL1E',
      symbol: 'CL=F',
      assetType: 'future',
      dialect: 'terminal',
    });
    expect(resolved('CL1 Comdty').note).toMatch(/rolls at expiry/);
  });

  it("the service's own CL1 rolls on open interest", () => {
    expect(resolved('CL1')).toMatchObject({ ticker: 'CL1', dialect: 'service', assetType: 'future' });
    expect(resolved('CL1').note).toMatch(/open interest/);
  });

  for (const root of ['ES', 'NQ', 'RTY', 'DM', 'UX']) {
    it(`${root}1 takes the Index key and rolls at expiry`, () => {
      expect(resolved(`${root}1 Index`)).toMatchObject({ ticker: `${root}1`, assetType: 'future' });
      expect(resolved(`${root}1 Index`).note).toMatch(/rolls at expiry/);
    });
  }

  it('a contract month of a known root; an unknown root is refused', () => {
    expect(resolved('CLZ5 Comdty')).toMatchObject({ ticker: 'CLZ5', symbol: 'CLZ25', assetType: 'future' });
    expect(refused('QQ1 Comdty')).toMatch(/not a futures root/);
  });

  it('the exchange-suffixed front month ROOT=F', () => {
    expect(resolved('CL=F')).toMatchObject({ ticker: 'CL=F', assetType: 'future', exchange: 'NYMEX' });
    expect(resolved('GC=F')).toMatchObject({ assetType: 'future', exchange: 'COMEX' });
  });
});

describe('currencies', () => {
  it('pairs in the terminal and exchange-suffixed forms', () => {
    expect(resolved('EURUSD Curncy')).toMatchObject({
      ticker: 'EURUSD=X',
      assetType: 'currency',
      currency: 'USD',
    });
    expect(resolved('EURUSD=X')).toMatchObject({ ticker: 'EURUSD=X', dialect: 'suffix' });
  });

  it("Yahoo's CCY=X shorthand is dollars in that currency, not an equity", () => {
    expect(resolved('CNY=X')).toMatchObject({
      ticker: 'CNY=X',
      symbol: 'CNY=X',
      assetType: 'currency',
      name: 'USD/CNY',
      currency: 'CNY',
      dialect: 'suffix',
    });
    expect(refused('USD=X')).toMatch(/names no rate/);
  });

  it('a single currency is its rate against the dollar, quoted the market way', () => {
    expect(resolved('JPY Curncy').ticker).toBe('USDJPY=X');
    expect(resolved('GBP Curncy').ticker).toBe('GBPUSD=X');
    expect(refused('USD Curncy')).toMatch(/names no rate/);
  });
});

describe('service and exchange-suffixed forms', () => {
  it('SYMBOL is a US listing; SYMBOL:MIC names the market', () => {
    expect(resolved('AAPL')).toMatchObject({
      ticker: 'AAPL',
      dialect: 'service',
      assetType: 'equity',
      currency: 'USD',
    });
    expect(resolved('7203:XTKS')).toMatchObject({ symbol: '7203.T', currency: 'JPY' });
    expect(refused('ABC:XXXX')).toMatch(/market "XXXX"/);
  });

  it('suffixes map to their markets; an unknown suffix is refused', () => {
    expect(resolved('7203.T')).toMatchObject({ ticker: '7203:XTKS', mic: 'XTKS' });
    expect(resolved('OCDO.L')).toMatchObject({ ticker: 'OCDO:XLON', currency: 'GBP' });
    expect(resolved('SAN.MC')).toMatchObject({ ticker: 'SAN:XMAD' });
    expect(refused('ABC.ZZ')).toMatch(/suffix ".ZZ"/);
  });

  it('crypto pairs', () => {
    expect(resolved('BTC-USD')).toMatchObject({ assetType: 'crypto', currency: 'USD' });
  });

  it('government and corporate bonds are not served', () => {
    expect(refused('T 4.5 11/15/33 Govt')).toMatch(/not served/);
    expect(refused('AAPL 3.85 05/04/43 Corp')).toMatch(/not served/);
  });

  it('text that is no ticker is refused, never a crash', () => {
    for (const text of ['', '   ', 'A B C D', '<script>', 'x'.repeat(40)])
      expect(resolveTicker(text).status).toBe('error');
  });
});
