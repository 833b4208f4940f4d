// awards data shapes (spec: Dataset data shapes, awards). Element shapes of the summary arrays are open.
import { Type } from 'typebox';
import { DateString, Nullable, Timestamp } from '../../kernel/schema.js';

const Amounts = Type.Array(
  Type.Object({
    currency: Type.String(),
    obligatedAmount: Nullable(
      Type.String({ description: 'Exact decimal sum; null when too large to sum exactly.' }),
    ),
    capped: Type.Optional(
      Type.Literal(true, {
        description:
          'The lots of a notice summed past the notice’s own total (framework lots give their ceilings): the ' +
          'notice counts its total here, not the sum.',
      }),
    ),
  }),
  {
    description:
      'Obligated amounts by currency (sums are never mixed across currencies); the lots of one notice count ' +
      'no more than the notice’s own total.',
  },
);
const Group = (
  label: string,
  keyName: string,
  key: ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>,
) =>
  Type.Array(Type.Object({ [keyName]: key, awards: Type.Integer(), amounts: Amounts }), {
    description: `${label}, over every award matching the filters (not only this page).`,
  });

export const AwardRow = Type.Object(
  {
    id: Type.String({ description: '40 lowercase hex characters.' }),
    revisionId: Type.String({ description: '40 hex characters; changes when the record changes.' }),
    source: Type.String(),
    sourceAwardId: Type.String(),
    jurisdiction: Type.String(),
    awardType: Type.Enum(['prime', 'subaward', 'modification', 'notice']),
    title: Type.String(),
    awardDate: DateString,
    currency: Type.String(),
    obligatedAmount: Type.String({ description: 'Exact decimal as a string.' }),
    recipient: Type.Object({ name: Type.String() }),
    agency: Type.Object({ name: Type.String() }),
    sourceUrl: Type.String(),
    observedAt: Timestamp,
    entity: Nullable(Type.Object({}, { additionalProperties: true })),
    revenueComparison: Nullable(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            "For a listed recipient whose annual revenue is held: fiscalYear, periodEnd, revenue and currency of its last fiscal year ended by the award date, and share (the award's amount over that revenue), in one currency only.",
        },
      ),
    ),
  },
  { title: 'AwardRow' },
);

export const AwardsData = Type.Object({
  generatedAt: Timestamp,
  asOf: Nullable(Timestamp),
  status: Type.String(),
  access: Type.String(),
  rows: Type.Array(AwardRow),
  nextCursor: Nullable(Type.String()),
  agencies: Group('The ten agencies with the most awards', 'name', Type.String()),
  sectors: Group('The ten sectors with the most awards', 'name', Type.String()),
  leaders: Group('The ten recipients with the most awards', 'recipient', Type.String()),
  history: Group('Awards by US federal fiscal year, oldest first', 'fiscalYear', Type.Integer()),
  alerts: Type.Array(
    Type.Object({
      kind: Type.String({ examples: ['deobligation'] }),
      awardId: Type.String(),
      message: Type.String(),
    }),
    {
      description:
        'Notable rows of the whole filtered set: the ten largest de-obligations (kind deobligation, negative amounts) and ten rows their loader flagged (kind source_flag: a notice total adding other currencies, an amount repeating its award id).',
    },
  ),
  sources: Type.Array(
    Type.Object({
      id: Type.String(),
      attribution: Type.String(),
      licence: Type.String(),
      awards: Type.Integer(),
    }),
    { description: 'Sources of the matching awards.' },
  ),
  coverage: Type.Array(
    Type.Object({
      source: Type.String(),
      jurisdiction: Type.String(),
      awards: Type.Integer(),
      firstAwardDate: DateString,
      lastAwardDate: DateString,
    }),
    { description: 'What the store holds for the matching awards, by source and jurisdiction.' },
  ),
  gaps: Type.Array(Type.String()),
  locked: Type.Boolean(),
});

export const AwardRevision = Type.Object(
  {
    ...AwardRow.properties,
    revision: Type.Integer({ description: '1 for the first version loaded.' }),
    loadedAt: Timestamp,
    knownAt: Type.String({
      format: 'date-time',
      description:
        "When this version became known: the source's date for it (Last Modified Date, a notice's publication) where it states one, else its load.",
    }),
    knownFrom: Nullable(
      Type.String({
        description:
          'Where knownAt came from: published (given with its file), record (the source’s own date), or load; ' +
          'null where it was not recorded.',
      }),
    ),
    supersededAt: Nullable(
      Type.String({ format: 'date-time', description: 'When the next version became known.' }),
    ),
  },
  { title: 'AwardRevision' },
);

export const AwardDetailData = Type.Object({
  award: AwardRow,
  details: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'What the source says beyond the row: amountKind (obligation, action_obligation, loan_subsidy_cost, contract_value or estimated_value), form (the form of a TED notice: F03, F06, F15, F21–F23, F25), faceValue (a loan), subAgency, parentAward, modificationNumber, lastModified, published (the date a notice was published), noticeTotal (the own total of a notice, as published), alerts.',
    }),
  ),
  knownAt: Type.String({
    format: 'date-time',
    description:
      "When the version shown became known: the source's date for it where it states one, else its load.",
  }),
  knownFrom: Nullable(
    Type.String({
      description:
        'Where knownAt came from: published (given with its file), record (the source’s own date), or load; ' +
        'null where it was not recorded.',
    }),
  ),
  revisions: Type.Array(AwardRevision, {
    description: 'Earlier versions of the record (as known at asOf, when given), newest known first.',
  }),
  nextRevisionsCursor: Nullable(Type.String({ description: 'Pass as revisionsCursor for older revisions.' })),
});
