// The market upstreams, a line each: the live provider asks them in the order QUARRY_MARKET_UPSTREAMS gives (by
// default every vendor whose key is set, in this order, then Yahoo). Adding one is its folder and its line.
import { FMP } from './fmp/index.js';
import { POLYGON } from './polygon/index.js';
import type { UpstreamDeclaration } from './port.js';
import { TIINGO } from './tiingo/index.js';
import { YAHOO } from './yahoo/index.js';

export const UPSTREAMS: readonly UpstreamDeclaration[] = [POLYGON, TIINGO, FMP, YAHOO];

/** What the configuration reads for each: its key, host and allowance variables. */
export const UPSTREAM_SETTINGS = UPSTREAMS.map((u) => u.settings);
