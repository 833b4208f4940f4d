// The events dataset: 8-K events.
import { loader } from '../../ingest/run.js';
import { SUBMISSIONS } from '../../ingest/sec/filings.js';
import {
  COMPANY_TICKERS,
  listedRegistrants,
  registrantRecords,
  registrantsImporter,
} from '../../ingest/sec/registrant-file.js';
import { tickersByCik } from '../../ingest/sec/registrants.js';
import { SEC_EDGAR } from '../../ingest/sec/source.js';
import { describe } from '../descriptor.js';
import { freshnessSource } from '../freshness.js';
import { eventsBulk } from './bulk.js';
import { eventsImporter } from './import.js';
import {
  EIGHT_K_DOCUMENT,
  primaryDocumentEvents,
  SUBMISSION_TEXT,
  submissionTextEvents,
} from './load/filing.js';
import { submissionEvents } from './load/submissions.js';
import * as m029 from './migrations/029-events-known-at.js';
import * as m040 from './migrations/040-events-known-from.js';
import { eventsOperations } from './operations.js';
import { eventsSample } from './sample.js';
import { EventsData } from './schema.js';

export const eventsDataset = describe({
  id: 'events',
  name: '8-K events',
  operations: eventsOperations,
  bulk: eventsBulk,
  importer: eventsImporter,
  // quarry ingest sec: EDGAR's registrants, submissions JSON and 8-K documents (the other datasets read
  // EDGAR's other files).
  loaders: {
    sec: [
      loader(registrantsImporter, registrantRecords, {
        kind: COMPANY_TICKERS,
        prepare: listedRegistrants,
        options: { ticker: 'TICKER: the ticker of a file that lists one registrant without it' },
      }),
      loader(eventsImporter, submissionEvents, { kind: SUBMISSIONS }),
      loader(eventsImporter, submissionTextEvents, {
        kind: SUBMISSION_TEXT,
        prepare: tickersByCik,
        options: { accession: "NUMBER: the filing's accession number, where the folder is not named by it" },
      }),
      loader(eventsImporter, primaryDocumentEvents, {
        kind: EIGHT_K_DOCUMENT,
        prepare: tickersByCik,
        options: {
          accession: "NUMBER: the filing's accession number, where the folder is not named by it",
          ticker: "TICKER: the filer's ticker, where neither the store nor the document names it",
        },
      }),
    ],
  },
  // The registrants first (the other EDGAR files find their ticker by CIK), the submissions of Apple,
  // Microsoft, NVIDIA and Tesla, and two 8-Ks read from their documents (Adobe's earnings, NVIDIA's 5.02).
  demo: {
    files: [
      ['sec', 'sec/company_tickers.json'],
      ...['0000320193', '0000789019', '0001045810', '0001318605'].map(
        (cik) => ['sec', `sec/submissions/CIK${cik}.json`] as const,
      ),
      ['sec', 'sec/8-K/0000796343-23-000044/0000796343-23-000044.txt'],
      ['sec', 'sec/8-K/0001045810-26-000024/0001045810-26-000024.txt'],
    ],
  },
  migrations: { '029-events-known-at': m029, '040-events-known-from': m040 },
  freshness: freshnessSource('events', 'events'),
  sources: [SEC_EDGAR],
  sample: { data: eventsSample, schema: EventsData },
});
