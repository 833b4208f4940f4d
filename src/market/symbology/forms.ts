// A provider symbol written in the three ticker forms. The terminal form is made from the reference tables and
// kept only when reading it back resolves to the same symbol, so a form the service would not read is never
// offered (null instead).
import { resolveTicker } from './resolve.js';
import { COMMODITY_ROOTS, EXCHANGE_CODES, INDEX_FUTURES, INDEXES } from './tables.js';

export interface Forms {
  service: string;
  suffix: string;
  terminal: string | null;
}

function terminalCandidates(symbol: string, ticker: string, mic: string | null): string[] {
  const out: string[] = [];
  for (const [code, index] of Object.entries(INDEXES)) if (index.ticker === symbol) out.push(`${code} Index`);
  for (const [root, future] of Object.entries(INDEX_FUTURES))
    if (future.provider === symbol) out.push(`${root}1 Index`);
  for (const [root, commodity] of Object.entries(COMMODITY_ROOTS))
    if (`${commodity.provider}=F` === symbol) out.push(`${root}1 Comdty`);
  const pair = /^([A-Z]{6})=X$/.exec(symbol);
  if (pair) out.push(`${pair[1]} Curncy`);
  const [local] = ticker.split(':');
  if (mic === null) out.push(`${symbol} US Equity`);
  else
    for (const [code, listing] of Object.entries(EXCHANGE_CODES))
      if (listing.mics[0] === mic) out.push(`${local} ${code} Equity`);
  return out;
}

/** The three forms of a provider symbol (exchange-suffixed form), or null when the symbol cannot be read. */
export function formsOf(symbol: string): Forms | null {
  const read = resolveTicker(symbol);
  if (read.status !== 'ok') return null;
  const { ticker, mic } = read.resolved;
  const terminal =
    terminalCandidates(read.resolved.symbol, ticker, mic).find((candidate) => {
      const back = resolveTicker(candidate);
      return back.status === 'ok' && back.resolved.symbol === read.resolved.symbol;
    }) ?? null;
  return { service: ticker, suffix: read.resolved.symbol, terminal };
}
