// The exec-pay dataset: Executive compensation.
import { loader } from '../../ingest/run.js';
import { SUBMISSIONS } from '../../ingest/sec/filings.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import { describe } from '../descriptor.js';
import { freshnessSource } from '../freshness.js';
import { execPayBulk } from './bulk.js';
import { execPayImporter } from './import.js';
import { CEO_PAY_TABLE, ceoPayTableRecords, heldFilings } from './load/ceo-pay-table.js';
import { PROXY, proxyRecords } from './load/proxy.js';
import { proxyFilingRecords, proxyFilingsImporter } from './load/proxy-filings.js';
import * as m030 from './migrations/030-exec-pay-known-at.js';
import * as m036 from './migrations/036-proxy-filings.js';
import * as m041 from './migrations/041-exec-pay-known-from.js';
import { execPayOperations } from './operations.js';
import { execPaySample } from './sample.js';
import { ExecPayData } from './schema.js';

export const execPayDataset = describe({
  id: 'exec-pay',
  name: 'Executive compensation',
  operations: execPayOperations,
  bulk: execPayBulk,
  importer: execPayImporter,
  // quarry ingest sec: DEF 14A proxies in inline XBRL, CEO-pay tables (a secondary source), and the proxies
  // listed in a submissions JSON.
  loaders: {
    sec: [
      loader(execPayImporter, proxyRecords, { kind: PROXY, prepare: tickersByCik }),
      loader(execPayImporter, ceoPayTableRecords, {
        kind: CEO_PAY_TABLE,
        prepare: heldFilings,
        options: { 'fiscal-year': "YEAR: the fiscal year the table's pay is for (required)" },
      }),
      // Beside the events of a submissions JSON: its proxies' acceptance times, which date a table's rows.
      loader(proxyFilingsImporter, proxyFilingRecords, { kind: SUBMISSIONS, alongside: true }),
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
  migrations: { '030-exec-pay-known-at': m030, '036-proxy-filings': m036, '041-exec-pay-known-from': m041 },
  freshness: freshnessSource('exec-pay', 'exec_pay'),
  sources: [SEC_EDGAR],
  sample: { data: execPaySample, schema: ExecPayData },
});
