import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { P } from '../params.js';
import { listProxies, proxiesForYear } from './read.js';
import { ExecPayData, ExecPayYearData } from './schema.js';

const query = Type.Object({ asOf: Type.Optional(P.asOf) }, { additionalProperties: false });

export const execPayOperations = [
  define({
    id: 'exec-pay.list',
    dataset: 'exec-pay',
    url: '/v1/exec-pay/:symbol',
    list: 'proxies',
    summary: "A company's executive pay filings",
    description:
      'CEO pay from each proxy statement, newest first; with asOf, the proxies filed by the end of that day.',
    params: Type.Object({ symbol: P.symbol }, { additionalProperties: false }),
    querystring: query,
    data: ExecPayData,
    price: fixed('lookup', 2),
    read: listProxies,
  }),
  define({
    id: 'exec-pay.year',
    dataset: 'exec-pay',
    url: '/v1/exec-pay/:symbol/:year',
    list: 'proxies',
    summary: "A company's executive pay for one year",
    description:
      'The proxy statements that cover one fiscal year; with asOf, those filed by the end of that day.',
    params: Type.Object({ symbol: P.symbol, year: P.year }, { additionalProperties: false }),
    querystring: query,
    data: ExecPayYearData,
    price: fixed('evidence', 2),
    read: proxiesForYear,
  }),
  changesOperation('exec-pay', [SEC_EDGAR], [{ table: 'exec_pay', rowId: 'row_id', key: ['id'] }]),
];
