// The awards dataset: Government awards.
import { loader } from '../../ingest/run.js';
import { describe } from '../descriptor.js';
import { freshnessSource } from '../freshness.js';
import { awardsBulk } from './bulk.js';
import { awardsImporter } from './import.js';
import { LEGACY_BULK, legacyBulk } from './load/bulk.js';
import {
  CURRENT_SUMMARIES,
  CURRENT_TRANSACTIONS,
  currentSummaries,
  currentTransactions,
} from './load/current-bulk.js';
import { eformsNotice, TED_EFORMS } from './load/eforms.js';
import { TED_R209, tedNotice } from './load/ted.js';
import { TRANSACTIONS, transactions } from './load/transactions.js';
import {
  AWARD_DETAIL,
  AWARD_SEARCH,
  awardDetail,
  awardSearch,
  heldForAwards,
  namesHeld,
} from './load/usaspending.js';
import { USASPENDING } from './load/usaspending-sync.js';
import * as m006 from './migrations/006-awards.js';
import * as m019 from './migrations/019-award-details.js';
import * as m021 from './migrations/021-award-indexes.js';
import * as m023 from './migrations/023-award-filter-indexes.js';
import * as m024 from './migrations/024-award-words-in-memory.js';
import * as m033 from './migrations/033-award-known-at.js';
import * as m042 from './migrations/042-award-known-from.js';
import { awardsOperations } from './operations.js';
import { awardsSample } from './sample.js';
import { AwardsData } from './schema.js';
import { TED, USASPENDING_SOURCE } from './source.js';

export const awardsDataset = describe({
  id: 'awards',
  name: 'Government awards',
  operations: awardsOperations,
  bulk: awardsBulk,
  importer: awardsImporter,
  // quarry ingest usaspending: the API's award detail, search and transactions responses, and bulk downloads.
  loaders: {
    usaspending: [
      loader(awardsImporter, awardDetail, { kind: AWARD_DETAIL, prepare: namesHeld }),
      loader(awardsImporter, awardSearch, { kind: AWARD_SEARCH, prepare: namesHeld }),
      loader(awardsImporter, transactions, {
        kind: TRANSACTIONS,
        prepare: heldForAwards,
        options: { award: 'ID: the award the transactions belong to, where their ids do not say' },
      }),
      loader(awardsImporter, legacyBulk, { kind: LEGACY_BULK, prepare: namesHeld }),
      loader(awardsImporter, currentTransactions, { kind: CURRENT_TRANSACTIONS, prepare: namesHeld }),
      loader(awardsImporter, currentSummaries, { kind: CURRENT_SUMMARIES, prepare: namesHeld }),
    ],
    // quarry ingest ted: TED award notices.
    ted: [
      loader(awardsImporter, tedNotice, { kind: TED_R209, prepare: namesHeld }),
      loader(awardsImporter, eformsNotice, { kind: TED_EFORMS, prepare: namesHeld }),
    ],
  },
  migrations: {
    '006-awards': m006,
    '019-award-details': m019,
    '021-award-indexes': m021,
    '023-award-filter-indexes': m023,
    '024-award-words-in-memory': m024,
    '033-award-known-at': m033,
    '042-award-known-from': m042,
  },
  // USAspending's responses (searches and details before the transactions under them), then TED's notices;
  // after the registrants and company facts that recipients are matched to.
  demo: {
    files: [
      ...[
        '01-award-search-dod-mit.json',
        '03-award-detail-sample.json',
        '04-transactions-sample.json',
        'search_results_subawards.json',
        'grant.json',
        'idv.json',
        'loan.json',
        'spending_by_award_contracts.json',
        'search_results_grants.json',
        'search_results_idvs.json',
        'usaspending_treasury_contracts.csv',
      ].map((f) => ['usaspending', `awards/usaspending/${f}`] as const),
      ...[
        '20-157399-001-EXP.xml',
        '20-157543-001-EXP.xml',
        '21-000061-001-EXP.xml',
        '22-086633-001-EXP.xml',
        '2024-OJS065-00191534.xml',
        '2024-OJS065-00191536.xml',
        '2024-OJS072-00215550.xml',
        '2024-OJS198-00611835.xml',
      ].map((f) => ['ted', `awards/ted/${f}`] as const),
    ],
    after: ['events', 'kpis-guidance'],
  },
  hosts: [USASPENDING],
  freshness: freshnessSource('awards', 'awards'),
  sources: [USASPENDING_SOURCE, TED],
  sample: { data: awardsSample, schema: AwardsData },
});
