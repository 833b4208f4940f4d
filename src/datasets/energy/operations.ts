import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { define } from '../operation.js';
import { P } from '../params.js';
import { readInventories } from './read.js';
import { EnergyData } from './schema.js';

export const energyOperations = [
  define({
    id: 'energy.inventories',
    dataset: 'energy-inventories',
    url: '/v1/energy/inventories',
    summary: 'Petroleum and gas inventories board',
    description:
      'Latest weekly report: each series with week change, year-ago level and five-year average; with asOf, as ' +
      'known at the end of that day.',
    querystring: Type.Object({ asOf: Type.Optional(P.asOf) }, { additionalProperties: false }),
    data: EnergyData,
    price: fixed('lookup', 1),
    read: readInventories,
  }),
];
