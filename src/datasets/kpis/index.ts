// The kpis-guidance dataset: Company KPIs and guidance.
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
import { kpisImporter } from './import.js';
import { kpisOperations } from './operations.js';
import { kpisSample } from './sample.js';
import { KpisData } from './schema.js';

export const kpisDataset = describe({
  id: 'kpis-guidance',
  name: 'Company KPIs and guidance',
  operations: kpisOperations,
  importer: kpisImporter,
  sources: [SOURCES['sec-edgar']],
  sample: { data: kpisSample, schema: KpisData },
});
