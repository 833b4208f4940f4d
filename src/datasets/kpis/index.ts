// The kpis-guidance dataset: Company KPIs and guidance.
import { loader } from '../../ingest/run.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
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
  importer: kpisImporter,
  // quarry ingest sec: EDGAR's company facts (the ticker found among the registrants held) and earnings
  // releases (guidance).
  loaders: {
    sec: [
      loader(kpisImporter, companyFactsRecords, { kind: COMPANY_FACTS, prepare: (db) => tickersByCik(db) }),
      loader(kpisImporter, releaseGuidance, { kind: EARNINGS_RELEASE, prepare: releaseContext }),
    ],
  },
  migrations: { '008-kpis': m008, '018-guidance-range': m018 },
  sources: [SOURCES['sec-edgar']],
  sample: { data: kpisSample, schema: KpisData },
});
