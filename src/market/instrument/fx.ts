// Exchange rates from the stored FX instruments, for figures reported in another currency than the price.
// Yahoo names a pair EURUSD=X (dollars per euro) and a dollar rate CNY=X (yuan per dollar); any of the
// spellings found, read from its quote or else its last daily close, gives the rate either way round.
import type { MarketProvider } from '../../kernel/market-provider.js';
import { resolveInput } from './instrument.js';

/** How many units of `to` one unit of `from` buys, or null when no stored instrument says. */
export async function fxRate(provider: MarketProvider, from: string, to: string): Promise<number | null> {
  if (from === to) return 1;
  const candidates: [string, boolean][] = [
    [`${from}${to}=X`, false],
    [`${to}${from}=X`, true],
  ];
  if (from === 'USD') candidates.push([`${to}=X`, false]);
  if (to === 'USD') candidates.push([`${from}=X`, true]);
  const pairs = candidates.flatMap(([symbol, inverse]) => {
    const read = resolveInput(symbol);
    return read.status === 'ok' ? [{ instrument: read.resolved, inverse }] : [];
  });
  const quotes = await provider.quotes(pairs.map((p) => p.instrument));
  for (const { instrument, inverse } of pairs) {
    let price = quotes.get(instrument.symbol)?.fields.price;
    if (typeof price !== 'number') price = (await provider.lastCloses(instrument, 1))[0];
    if (typeof price === 'number' && price > 0) return inverse ? 1 / price : price;
  }
  return null;
}
