// Where energy-inventories comes from, as meta.source and the catalog credit it.
import type { Source } from '../descriptor.js';

export const EIA: Source = {
  id: 'eia',
  attribution:
    'U.S. Energy Information Administration, Weekly Petroleum Status Report and natural gas storage',
  licence: 'Public domain (U.S. federal government work)',
};
