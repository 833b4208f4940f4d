// The exec-pay dataset: Executive compensation.
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
import { execPayImporter } from './import.js';
import { execPayOperations } from './operations.js';
import { execPaySample } from './sample.js';
import { ExecPayData } from './schema.js';

export const execPayDataset = describe({
  id: 'exec-pay',
  name: 'Executive compensation',
  operations: execPayOperations,
  importer: execPayImporter,
  sources: [SOURCES['sec-edgar']],
  sample: { data: execPaySample, schema: ExecPayData },
});
