// The market verbs: one line each. The HTTP routes, the MCP tools, the OpenAPI document, the tools reference
// and the clients' types are made from this list; a verb is its folder and its line here.
import { ACTIONS } from './actions/index.js';
import { DATA } from './data/index.js';
import { FIELDS_VERB } from './fields/index.js';
import { HISTORY } from './history/index.js';
import { QUOTES } from './quotes/index.js';
import { RESOLVE } from './resolve/index.js';
import { SEARCH } from './search/index.js';
import { SHORT_INTEREST } from './short-interest/index.js';
import type { AnyMarketVerb } from './verb/declare.js';

/** In the order the tools are listed and the routes documented. */
export const MARKET_VERBS: readonly AnyMarketVerb[] = [
  QUOTES,
  DATA,
  HISTORY,
  ACTIONS,
  FIELDS_VERB,
  SHORT_INTEREST,
  RESOLVE,
  SEARCH,
];
