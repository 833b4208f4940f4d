// market.resolve: what each ticker, in any of the three forms, resolves to, and what data is held for it.
import type { Deps } from '../../kernel/deps.js';
import { foundListings, lookupMany } from '../instrument/lookup.js';
import { shown } from '../symbology/resolve.js';

export async function resolveTickers(deps: Pick<Deps, 'market'>, tickers: readonly string[]) {
  const provider = deps.market;
  const looked = await lookupMany(provider, tickers, false);
  const listings = foundListings(looked);
  const [quotes, short] = await Promise.all([provider.quotes(listings), provider.shortInterest(listings)]);
  const items = await Promise.all(
    looked.map(async (r) => {
      if (r.status === 'error') return { input: r.input, status: 'error' as const, error: r.error };
      const { resolved } = r.found;
      const [bars, statements] = await Promise.all([
        provider.series(resolved),
        provider.statements(resolved),
      ]);
      const first = bars[0];
      const last = bars.at(-1);
      return {
        input: r.input,
        status: 'ok' as const,
        resolved: shown(resolved),
        held: {
          quote: quotes.has(resolved.symbol),
          bars: first && last ? { count: bars.length, first: first.date, last: last.date } : null,
          statementFields: statements.size,
          shortInterest: short.has(resolved.symbol),
        },
      };
    }),
  );
  return { access: 'market-data', items };
}
