import { Type } from 'typebox';
import { storedMeta } from '../envelope.js';
import { define, type OperationInput } from '../operation.js';
import { P } from '../params.js';
import { fixed } from '../pricing.js';
import { SOURCES } from '../sources.js';
import { ExecPayData, ExecPayYearData } from './schema.js';

const none = Type.Object({}, { additionalProperties: false });

function company(params: Record<string, unknown>) {
  const ticker = String(params.symbol).toUpperCase();
  return { ticker, cik: null, name: ticker, shortName: ticker };
}

export const execPayOperations = [
  define({
    id: 'exec-pay.list',
    dataset: 'exec-pay',
    url: '/v1/exec-pay/:symbol',
    summary: "A company's executive pay filings",
    description: 'CEO pay from each proxy statement, newest first.',
    params: Type.Object({ symbol: P.symbol }, { additionalProperties: false }),
    querystring: none,
    data: ExecPayData,
    price: fixed('lookup', 2),
    async read(_deps, { params }: OperationInput) {
      return {
        data: { company: company(params), proxies: [] },
        meta: storedMeta('exec-pay', [SOURCES['sec-edgar']]),
      };
    },
  }),
  define({
    id: 'exec-pay.year',
    dataset: 'exec-pay',
    url: '/v1/exec-pay/:symbol/:year',
    summary: "A company's executive pay for one year",
    description: 'The proxy statements that cover one fiscal year.',
    params: Type.Object({ symbol: P.symbol, year: P.year }, { additionalProperties: false }),
    querystring: none,
    data: ExecPayYearData,
    price: fixed('evidence', 2),
    async read(_deps, { params }: OperationInput) {
      const data = { company: company(params), year: Number(params.year), proxies: [] };
      return { data, meta: storedMeta('exec-pay', [SOURCES['sec-edgar']]) };
    },
  }),
];
