// The awards dataset: Government awards.
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
import { awardsImporter } from './import.js';
import { awardsOperations } from './operations.js';
import { awardsSample } from './sample.js';
import { AwardsData } from './schema.js';

export const awardsDataset = describe({
  id: 'awards',
  name: 'Government awards',
  operations: awardsOperations,
  importer: awardsImporter,
  sources: [SOURCES.usaspending, SOURCES.ted],
  sample: { data: awardsSample, schema: AwardsData },
});
