// The events dataset: 8-K events.
import { loader } from '../../ingest/run.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { describe } from '../descriptor.js';
import { COMPANY_TICKERS, registrantRecords, registrantsImporter } from '../registrants.js';
import { SOURCES } from '../sources.js';
import { eventsImporter } from './import.js';
import {
  EIGHT_K_DOCUMENT,
  primaryDocumentEvents,
  SUBMISSION_TEXT,
  submissionTextEvents,
} from './load/filing.js';
import { SUBMISSIONS, submissionEvents } from './load/submissions.js';
import { eventsOperations } from './operations.js';
import { eventsSample } from './sample.js';
import { EventsData } from './schema.js';

export const eventsDataset = describe({
  id: 'events',
  name: '8-K events',
  operations: eventsOperations,
  importer: eventsImporter,
  // quarry ingest sec: EDGAR's registrants, submissions JSON and 8-K documents (the other datasets read
  // EDGAR's other files).
  loaders: {
    sec: [
      loader(registrantsImporter, registrantRecords, { kind: COMPANY_TICKERS }),
      loader(eventsImporter, submissionEvents, { kind: SUBMISSIONS }),
      loader(eventsImporter, submissionTextEvents, { kind: SUBMISSION_TEXT, prepare: tickersByCik }),
      loader(eventsImporter, primaryDocumentEvents, { kind: EIGHT_K_DOCUMENT, prepare: tickersByCik }),
    ],
  },
  sources: [SOURCES['sec-edgar']],
  sample: { data: eventsSample, schema: EventsData },
});
