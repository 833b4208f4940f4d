import { Type } from 'typebox';
import { fixed } from '../../accounts/pricing.js';
import { changesOperation } from '../changes.js';
import { define } from '../operation.js';
import { checkRange, P } from '../params.js';
import { AWARD_PARAMS } from './params.js';
import { AWARD_SOURCES, awardDetail, listAwards, type Row, toAward } from './read.js';
import { AwardDetailData, AwardsData } from './schema.js';

const O = Type.Optional;

export const awardsOperations = [
  define({
    id: 'awards.list',
    dataset: 'awards',
    url: '/v1/awards',
    list: 'rows',
    summary: 'Search government awards',
    description:
      'Awards matching every filter given, newest first, paged with nextCursor; with asOf, the awards and their ' +
      'summaries as known at the end of that day (UTC): each award as its source had published it by then.',
    querystring: Type.Object(
      {
        ticker: O(AWARD_PARAMS.ticker),
        jurisdiction: O(AWARD_PARAMS.jurisdiction),
        currency: O(AWARD_PARAMS.currency),
        agency: O(AWARD_PARAMS.agency),
        sector: O(AWARD_PARAMS.sector),
        source: O(AWARD_PARAMS.source),
        parentId: O(AWARD_PARAMS.parentId),
        awardType: O(AWARD_PARAMS.awardType),
        from: O(P.from),
        to: O(P.to),
        fiscalYear: O(AWARD_PARAMS.fiscalYear),
        query: O(AWARD_PARAMS.query),
        minAmount: O(AWARD_PARAMS.minAmount),
        asOf: O(P.asOf),
        cursor: O(P.cursor),
        limit: O(P.limit),
      },
      { additionalProperties: false },
    ),
    data: AwardsData,
    price: fixed('search', 2),
    refine: checkRange,
    read: listAwards,
  }),
  define({
    id: 'awards.detail',
    dataset: 'awards',
    url: '/v1/awards/:id',
    list: 'revisions',
    summary: 'One award with its revisions',
    description:
      'The current record of an award and its earlier revisions, paged with revisionsCursor; with asOf, the ' +
      'version known at the end of that day (UTC) and those before it (404 when none was published by then).',
    params: Type.Object({ id: AWARD_PARAMS.id }, { additionalProperties: false }),
    querystring: Type.Object(
      { revisionsCursor: O(AWARD_PARAMS.revisionsCursor), asOf: O(P.asOf) },
      { additionalProperties: false },
    ),
    data: AwardDetailData,
    price: fixed('evidence', 2),
    read: awardDetail,
  }),
  changesOperation('awards', AWARD_SOURCES, [
    { table: 'awards', rowId: 'row_id', key: ['id'], record: (row) => toAward(row as Row) },
  ]),
];
