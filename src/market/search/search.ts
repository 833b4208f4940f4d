// /v1/search and market.search: instruments by symbol or name, from the stored data and the upstream's
// search, each written in the three ticker forms the other market calls take.
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { formsOf } from '../symbology/forms.js';

export interface SearchRequest {
  q: string;
}

export const MAX_QUERY_CHARS = 100;

export function checkedQuery(request: SearchRequest): string {
  const q = (request.q ?? '').trim();
  if (q.length === 0) throw new AppError('invalid_params', 'q: give a symbol or part of a name');
  if (q.length > MAX_QUERY_CHARS)
    throw new AppError('invalid_params', `q: at most ${MAX_QUERY_CHARS} characters; ${q.length} given`);
  return q;
}

export async function searchInstruments(deps: Pick<Deps, 'market'>, q: string) {
  const found = await deps.market.find(q);
  const items = found.flatMap((f) => {
    const forms = formsOf(f.symbol);
    if (!forms) return [];
    return [{ symbol: f.symbol, name: f.name, exchange: f.exchange, type: f.type, source: f.source, forms }];
  });
  return { access: 'market-data', query: q, items };
}
