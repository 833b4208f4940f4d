import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { P } from '../params.js';
import { readInventories } from './read.js';
import { EnergyData } from './schema.js';
import { EIA } from './source.js';

export const energyOperations = [
  define({
    id: 'energy.inventories',
    dataset: 'energy-inventories',
    url: '/v1/energy/inventories',
    list: 'series',
    summary: 'Petroleum and gas inventories board',
    description:
      'Latest weekly report: each series with week change, year-ago level and five-year average; with asOf, as ' +
      'known at the end of that day.',
    querystring: Type.Object({ asOf: Type.Optional(P.asOf) }, { additionalProperties: false }),
    data: EnergyData,
    price: fixed('lookup', 1),
    read: readInventories,
  }),
  changesOperation(
    'energy-inventories',
    [EIA],
    [
      { table: 'energy_series', rowId: 'id', key: ['series_id'] },
      { table: 'energy_observations', rowId: 'id', key: ['series_id', 'week_ending'] },
      { table: 'energy_reports', rowId: 'id', key: ['report', 'week_ending'] },
    ],
  ),
];
