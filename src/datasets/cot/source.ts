// Where cot comes from, as meta.source and the catalog credit it.
import type { Source } from '../descriptor.js';

export const CFTC: Source = {
  id: 'cftc',
  attribution: 'U.S. Commodity Futures Trading Commission, Commitments of Traders reports',
  licence: 'Public domain (U.S. federal government work)',
};
