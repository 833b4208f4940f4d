// The market tools, made from the market verbs' declarations (src/market/registry.ts): each is its verb with
// the REST route's arguments and answer, laid out as a compact table. Every call of one takes one unit from the
// key's minute and day, shared with the REST routes; the verb's own units check its limits first.
import { MARKET_VERBS } from '../market/registry.js';
import { todayOf } from '../market/verb/declare.js';
import { MARKET_TABLES } from './market-tables.js';
import type { Tool } from './tool.js';

export const MARKET_TOOLS: Tool[] = MARKET_VERBS.map((verb) => {
  const { units, wire } = verb;
  const layout = MARKET_TABLES[verb.name];
  if (!layout) throw new Error(`the market verb ${verb.name} has no table in market-tables.ts`);
  return {
    api: 'market',
    ...verb.tool,
    input: verb.request,
    output: verb.answer,
    layout,
    run: (deps, args) => verb.run(deps, args),
    ...(units ? { check: (deps, args) => void units(args, todayOf(deps)) } : {}),
    ...(wire ? { wire } : {}),
  } satisfies Tool;
});
