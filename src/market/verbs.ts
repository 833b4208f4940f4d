// The market verbs as every transport calls them: what a call costs in units, and what it answers (the REST
// response body). The HTTP routes and the MCP tools read this one table.
import type { Deps } from '../kernel/deps.js';
import { type ActionsRequest, actions, actionsUnits } from './actions.js';
import { type DataRequest, data, dataUnits } from './data.js';
import { history } from './history.js';
import { type HistoryRequest, historyUnits, isoDate } from './history-request.js';
import { checkedQuery, type SearchRequest, searchInstruments } from './instruments.js';
import { type QuotesRequest, quotes, quotesUnits } from './quotes.js';

export interface MarketVerb<I, O> {
  /** Units the call takes from the key's minute and day; throws invalid_params when the input is out of limits. */
  units(input: I, today: string): number;
  run(deps: Deps, input: I): Promise<O>;
}

export const QUOTES: MarketVerb<QuotesRequest, Awaited<ReturnType<typeof quotes>>> = {
  units: (input) => quotesUnits(input),
  run: (deps, input) => quotes(deps, input, deps.config.market.answerWithinMs),
};

export const DATA: MarketVerb<DataRequest, Awaited<ReturnType<typeof data>>> = {
  units: dataUnits,
  run: (deps, input) => data(deps, input, deps.config.market.answerWithinMs),
};

export const HISTORY: MarketVerb<HistoryRequest, Awaited<ReturnType<typeof history>>> = {
  units: historyUnits,
  run: (deps, input) => history(deps, input, deps.config.market.answerWithinMs),
};

export const ACTIONS: MarketVerb<ActionsRequest, Awaited<ReturnType<typeof actions>>> = {
  units: actionsUnits,
  run: (deps, input) => actions(deps, input, deps.config.market.answerWithinMs),
};

/** One unit a search. */
export const SEARCH: MarketVerb<SearchRequest, Awaited<ReturnType<typeof searchInstruments>>> = {
  units: (input) => {
    checkedQuery(input);
    return 1;
  },
  run: searchInstruments,
};

/** Today's date as the verbs read default windows, from the deps' clock. */
export const todayOf = (deps: Pick<Deps, 'clock'>) => isoDate(deps.clock());
