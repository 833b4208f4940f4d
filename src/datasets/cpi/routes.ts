import { Type } from 'typebox';
import { storedMeta } from '../envelope.js';
import { define } from '../operation.js';
import { fixed } from '../pricing.js';
import { SOURCES } from '../sources.js';
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
    async read() {
      const data = {
        source: 'bls',
        generatedAt: new Date().toISOString(),
        retrievedAt: null,
        status: 'partial',
        gaps: ['no releases loaded'],
        release: {
          period: null,
          releasedAt: null,
          weightsPeriod: null,
          nextPeriod: null,
          nextReleaseAt: null,
        },
        rows: [],
      };
      return { data, meta: storedMeta('cpi', [SOURCES.bls]) };
    },
  }),
];
