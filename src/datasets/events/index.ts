// The events dataset: 8-K events.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
import { eventsImporter } from './import.js';
import { submissionEvents } from './load/submissions.js';
import { eventsOperations } from './operations.js';
import { eventsSample } from './sample.js';
import { EventsData } from './schema.js';

export const eventsDataset = describe({
  id: 'events',
  name: '8-K events',
  operations: eventsOperations,
  importer: eventsImporter,
  // quarry ingest sec: EDGAR's submissions JSON. Other EDGAR files (8-K documents, proxies, company facts)
  // will be told apart by their content under the same source name.
  loaders: { sec: loader(eventsImporter, submissionEvents) },
  sources: [SOURCES['sec-edgar']],
  sample: { data: eventsSample, schema: EventsData },
});
