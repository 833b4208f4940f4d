// The kpis-guidance dataset: Company KPIs and guidance.
import { loader } from '../../ingest/run.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import { describe } from '../descriptor.js';
import { freshnessSource } from '../freshness.js';
import { kpisBulk } from './bulk.js';
import { kpisImporter } from './import.js';
import { COMPANY_FACTS, companyFactsRecords } from './load/companyfacts.js';
import { EARNINGS_RELEASE, releaseContext, releaseGuidance } from './load/release.js';
import * as m008 from './migrations/008-kpis.js';
import * as m018 from './migrations/018-guidance-range.js';
import { kpisOperations } from './operations.js';
import { kpisSample } from './sample.js';
import { KpisData } from './schema.js';

export const kpisDataset = describe({
  id: 'kpis-guidance',
  name: 'Company KPIs and guidance',
  operations: kpisOperations,
  bulk: kpisBulk,
  importer: kpisImporter,
  // quarry ingest sec: EDGAR's company facts (the ticker found among the registrants held) and earnings
  // releases (guidance).
  loaders: {
    sec: [
      loader(kpisImporter, companyFactsRecords, { kind: COMPANY_FACTS, prepare: tickersByCik }),
      loader(kpisImporter, releaseGuidance, {
        kind: EARNINGS_RELEASE,
        prepare: releaseContext,
        options: {
          accession: "NUMBER: the filing's accession number, where the folder is not named by it",
          ticker: 'TICKER: the issuer of a press release, where its filing does not name it',
        },
      }),
    ],
  },
  migrations: { '008-kpis': m008, '018-guidance-range': m018 },
  // Apple's and NVIDIA's company facts, and Adobe's guidance in its earnings release.
  demo: {
    files: [
      ['sec', 'sec/companyfacts/CIK0000320193.json'],
      ['sec', 'sec/companyfacts/CIK0001045810.json'],
      ['sec', 'sec/8-K/0000796343-23-000044/adbeex991q123.htm'],
    ],
    after: ['events'],
  },
  freshness: freshnessSource('kpis-guidance', 'kpi_facts'),
  sources: [SEC_EDGAR],
  sample: { data: kpisSample, schema: KpisData },
});
