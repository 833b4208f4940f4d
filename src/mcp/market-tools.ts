// The market tools, made from the market verbs' declarations (src/market/registry.ts): each is its verb with
// the REST route's arguments and answer, laid out as a compact table. Every call of one takes one unit from the
// key's minute and day, shared with the REST routes.
import { MARKET_VERBS } from '../market/registry.js';
import { type AnyMarketVerb, todayOf } from '../market/verb/declare.js';
import { MARKET_TABLES } from './market-tables.js';
import type { Tool } from './tool.js';

export const MARKET_TOOLS: Tool[] = MARKET_VERBS.map(toolOf);

function toolOf(verb: AnyMarketVerb): Tool {
  const layout = MARKET_TABLES[verb.name];
  if (!layout) throw new Error(`the market verb ${verb.name} has no table in market-tables.ts`);
  // The arguments are read once a call: the check before the unit is charged reads them (refusing what is past
  // the verb's limits), and the answer takes that reading. A later page, never checked, reads them itself.
  const readings = new WeakMap<object, unknown>();
  return {
    api: 'market',
    ...verb.tool,
    input: verb.request,
    output: verb.response,
    layout,
    check: (deps, args) => void readings.set(args, verb.read(args, todayOf(deps))),
    run: (deps, args) =>
      verb.answer(deps, readings.has(args) ? readings.get(args) : verb.read(args, todayOf(deps))),
    ...(verb.wire ? { wire: verb.wire } : {}),
  };
}
