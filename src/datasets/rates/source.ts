// Where treasury-rates comes from, as meta.source and the catalog credit it.
import type { Source } from '../descriptor.js';

export const TREASURY: Source = {
  id: 'treasury',
  attribution:
    'U.S. Department of the Treasury, Daily Treasury Par Yield Curve Rates and Daily Treasury Bill Rates',
  licence: 'Public domain (U.S. federal government work)',
};
