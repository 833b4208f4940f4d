import { Type } from 'typebox';
import { storedMeta } from '../envelope.js';
import { define } from '../operation.js';
import { fixed } from '../pricing.js';
import { SOURCES } from '../sources.js';
import { EnergyData } from './schema.js';

export const energyOperations = [
  define({
    id: 'energy.inventories',
    dataset: 'energy-inventories',
    url: '/v1/energy/inventories',
    summary: 'Petroleum and gas inventories board',
    description: 'Latest weekly report: each series with week change, year-ago level and five-year average.',
    querystring: Type.Object({}, { additionalProperties: false }),
    data: EnergyData,
    price: fixed('lookup', 1),
    async read() {
      const data = {
        source: 'eia',
        generatedAt: new Date().toISOString(),
        status: 'partial',
        gaps: ['no reports loaded'],
        reports: [],
        series: [],
      };
      return { data, meta: storedMeta('energy-inventories', [SOURCES.eia]) };
    },
  }),
];
