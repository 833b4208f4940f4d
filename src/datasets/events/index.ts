// The events dataset: 8-K events.
import { describe } from '../descriptor.js';
import { SOURCES } from '../sources.js';
import { eventsImporter } from './import.js';
import { eventsOperations } from './operations.js';
import { eventsSample } from './sample.js';
import { EventsData } from './schema.js';

export const eventsDataset = describe({
  id: 'events',
  name: '8-K events',
  operations: eventsOperations,
  importer: eventsImporter,
  sources: [SOURCES['sec-edgar']],
  sample: { data: eventsSample, schema: EventsData },
});
