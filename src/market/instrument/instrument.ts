// A ticker as sent, resolved once for its request: its resolution and the listings it may be found under (its
// own, then its CN/TT fallbacks). Every per-ticker market verb starts here, and the providers take what it
// gives; a symbol the service names itself (a benchmark index, an FX pair) is read the same way.
import type { Instrument } from '../../kernel/market-provider.js';
import { type Resolved, resolveTicker } from '../symbology/resolve.js';

export type Resolving =
  | { input: string; status: 'ok'; resolved: Resolved; chain: Resolved[] }
  | { input: string; status: 'error'; error: { code: 'not_found'; message: string } };

export function resolveInput(input: string): Resolving {
  const r = resolveTicker(input);
  if (r.status !== 'ok') return r;
  const chain = [r.resolved];
  for (const fallback of r.resolved.fallbacks ?? []) {
    const alt = resolveTicker(fallback);
    if (alt.status === 'ok') chain.push({ ...alt.resolved, dialect: r.resolved.dialect });
  }
  return { input: r.input, status: 'ok', resolved: r.resolved, chain };
}

/** A provider symbol the service names itself (^GSPC, the beta benchmark) as an instrument. */
export function instrumentOf(symbol: string): Instrument {
  const r = resolveInput(symbol);
  if (r.status !== 'ok') throw new Error(`${symbol} is not a symbol the market reads: ${r.error.message}`);
  return r.resolved;
}
