// The universe of bench:universe and bench:isolation: one end-of-day file of many listings (Date,Ticker,…, the
// layout bulk exports use) built from the real price files of assets/market, each series under other tickers.
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The real daily series of assets/market: [{ name, rows: 'date,open,high,low,close,volume' lines }]. */
export function realSeries() {
  const root = path.resolve('assets/market');
  const out = [];
  for (const folder of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()))
    for (const file of readdirSync(path.join(root, folder.name)).filter((f) => f.endsWith('.csv'))) {
      let [head, ...lines] = readFileSync(path.join(root, folder.name, file), 'utf8')
        .trim()
        .split(/\r?\n/);
      let names = head.split(',').map((n) => n.toLowerCase().replace(/[^a-z]/g, ''));
      // yfinance's three header rows: Price,… / Ticker,… / Date,,…
      if (names[0] === 'price' && !names.includes('date')) {
        names = ['date', ...names.slice(1)];
        lines = lines.slice(2);
      }
      const at = (n) => names.indexOf(n);
      const [date, open, high, low, close, volume] = ['date', 'open', 'high', 'low', 'close', 'volume'].map(
        at,
      );
      const rows = [];
      for (const line of lines) {
        const f = line.split(',');
        if (!f[close]) continue;
        rows.push([f[date].slice(0, 10), f[open], f[high], f[low], f[close], f[volume] ?? ''].join(','));
      }
      out.push({ name: file, rows });
    }
  return out.sort((a, b) => b.rows.length - a.rows.length);
}

/**
 * Writes the universe file: each real series under tickers UA0…, UB0…, until `target.bars` bars or (when
 * given) `target.listings` listings; and beside it, when `sixFile` is given, the file of its first six listings.
 */
export function universeFile(file, sixFile, series, target) {
  let six = 'Date,Ticker,Open,High,Low,Close,Volume\n';
  const out = openSync(file, 'w');
  writeSync(out, 'Date,Ticker,Open,High,Low,Close,Volume\n');
  const tickers = [];
  let bars = 0;
  const enough = () => (target.listings ? tickers.length >= target.listings : bars >= target.bars);
  for (let copy = 0; !enough(); copy += 1)
    for (const [s, { rows }] of series.entries()) {
      if (enough()) break;
      const ticker = `U${String.fromCharCode(65 + s)}${copy}`;
      tickers.push({ ticker, bars: rows.length });
      const text = `${rows.map((r) => r.replace(',', `,${ticker},`)).join('\n')}\n`;
      writeSync(out, text);
      if (tickers.length <= 6) six += text;
      bars += rows.length;
    }
  closeSync(out);
  if (sixFile) writeFileSync(sixFile, six);
  return { bars, tickers };
}
