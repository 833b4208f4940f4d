// The exec-pay dataset: Executive compensation.
import { loader } from '../../ingest/run.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { describe } from '../descriptor.js';
import { freshnessSource } from '../freshness.js';
import { SEC_EDGAR } from '../sources.js';
import { execPayBulk } from './bulk.js';
import { execPayImporter } from './import.js';
import { CEO_PAY_TABLE, ceoPayTableRecords } from './load/ceo-pay-table.js';
import { PROXY, proxyRecords } from './load/proxy.js';
import * as m030 from './migrations/030-exec-pay-known-at.js';
import { execPayOperations } from './operations.js';
import { execPaySample } from './sample.js';
import { ExecPayData } from './schema.js';

export const execPayDataset = describe({
  id: 'exec-pay',
  name: 'Executive compensation',
  operations: execPayOperations,
  bulk: execPayBulk,
  importer: execPayImporter,
  // quarry ingest sec: DEF 14A proxies in inline XBRL, and CEO-pay tables (a secondary source).
  loaders: {
    sec: [
      loader(execPayImporter, proxyRecords, { kind: PROXY, prepare: tickersByCik }),
      loader(execPayImporter, ceoPayTableRecords, {
        kind: CEO_PAY_TABLE,
        prepare: tickersByCik,
        options: { 'fiscal-year': "YEAR: the fiscal year the table's pay is for (required)" },
      }),
    ],
  },
  // Cabot's proxy, and the CEO-pay table's fiscal 2021 pay.
  demo: {
    files: [
      ['sec', 'sec/exec-pay/cabot.DEF14A.ixbrl.html'],
      ['sec', 'sec/exec-pay/ceo_data_pay_merged_sp500.csv', { 'fiscal-year': '2021' }],
    ],
    after: ['events'],
  },
  migrations: { '030-exec-pay-known-at': m030 },
  freshness: freshnessSource('exec-pay', 'exec_pay'),
  sources: [SEC_EDGAR],
  sample: { data: execPaySample, schema: ExecPayData },
});
