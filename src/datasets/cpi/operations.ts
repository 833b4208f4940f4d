import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { define } from '../operation.js';
import { readBoard } from './read.js';
import { CpiData } from './schema.js';

export const cpiOperations = [
  define({
    id: 'cpi.board',
    dataset: 'cpi',
    url: '/v1/macro/cpi',
    summary: 'Consumer price components board',
    description: 'Latest release: each component with weight, changes and contributions.',
    querystring: Type.Object({}, { additionalProperties: false }),
    data: CpiData,
    price: fixed('lookup', 1),
    read: readBoard,
  }),
];
