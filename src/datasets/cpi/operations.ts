import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { P } from '../params.js';
import { readBoard } from './read.js';
import { CpiData } from './schema.js';
import { BLS } from './source.js';

export const cpiOperations = [
  define({
    id: 'cpi.board',
    dataset: 'cpi',
    url: '/v1/macro/cpi',
    list: 'rows',
    summary: 'Consumer price components board',
    description:
      'Latest release: each component with weight, changes and contributions; with asOf, the board as known ' +
      "at the end of that day (a later vintage's revisions not yet published).",
    querystring: Type.Object({ asOf: Type.Optional(P.asOf) }, { additionalProperties: false }),
    data: CpiData,
    price: fixed('lookup', 1),
    read: readBoard,
  }),
  changesOperation(
    'cpi',
    [BLS],
    [
      { table: 'cpi_items', rowId: 'id', key: ['item_code'] },
      { table: 'cpi_index', rowId: 'id', key: ['item_code', 'seasonal', 'period'] },
      { table: 'cpi_weights', rowId: 'id', key: ['item_code', 'weights_period'] },
      { table: 'cpi_series', rowId: 'id', key: ['series_id'] },
      { table: 'cpi_releases', rowId: 'id', key: ['period'] },
    ],
  ),
];
