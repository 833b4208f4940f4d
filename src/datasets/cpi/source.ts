// Where cpi comes from, as meta.source and the catalog credit it, and the disclaimer the BLS asks for.
import type { Source } from '../descriptor.js';

export const BLS: Source = {
  id: 'bls',
  attribution: 'U.S. Bureau of Labor Statistics, Consumer Price Index',
  licence: 'Public domain (U.S. federal government work)',
};

/** On cpi responses: who vouches for what. */
export const BLS_DISCLAIMER =
  'The Bureau of Labor Statistics does not vouch for data derived from its statistics; ' +
  'the derived calculations (changes, annualised rates, contributions) are Quarry’s.';
