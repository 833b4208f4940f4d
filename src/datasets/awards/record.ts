// The awards interchange record: one award (prime, subaward, modification or notice) as its source shows it.
import { type Static, Type } from 'typebox';

const Name = Type.String({ minLength: 1, maxLength: 500 });
const Open = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);

/** What a source says of an award beyond the common fields. */
export const AwardDetails = Type.Object(
  {
    amountKind: Type.Optional(
      Type.Enum(
        ['obligation', 'action_obligation', 'loan_subsidy_cost', 'contract_value', 'estimated_value'],
        {
          description:
            'What obligatedAmount is: the obligation; the obligation of one action (a bulk download row); for a loan the subsidy cost obligated (its face value is not an obligation); for a notice the contract value awarded, or the estimate of the buyer where it states no other.',
        },
      ),
    ),
    form: Type.Optional(
      Type.String({
        pattern: '^F[0-9]{2}$',
        description:
          "A TED notice's form: F03 contract award, F06 utilities, F15 voluntary ex ante transparency (awarded without prior publication), F21–F23 social and other specific services, F25 concession award.",
      }),
    ),
    faceValue: Type.Optional(
      Type.String({ pattern: '^-?[0-9]{1,24}(\\.[0-9]{1,6})?$', description: "A loan's face value." }),
    ),
    subAgency: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    parentAward: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The source's id of the parent award (an IDV).",
      }),
    ),
    modificationNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    lastModified: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: "The source's Last Modified Date of the award (YYYY-MM-DD, perhaps with a time).",
      }),
    ),
    published: Type.Optional(
      Type.String({
        format: 'date',
        description: "The date the source published the notice (TED's OJ S issue).",
      }),
    ),
    noticeTotal: Type.Optional(
      Type.Object(
        {
          amount: Type.String({ pattern: '^-?[0-9]{1,24}(\\.[0-9]{1,6})?$' }),
          currency: Type.String({ pattern: '^[A-Z]{3}$' }),
        },
        { additionalProperties: false, description: "A notice's own total, as published." },
      ),
    ),
    alerts: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }))),
  },
  { additionalProperties: false },
);

export const AwardRecord = Type.Object(
  {
    source: Type.String({ pattern: '^[a-z0-9_-]{1,64}$' }),
    sourceAwardId: Type.String({ minLength: 1, maxLength: 200 }),
    jurisdiction: Type.String({ pattern: '^[A-Z]{2,3}$' }),
    awardType: Type.Enum(['prime', 'subaward', 'modification', 'notice']),
    title: Type.String({ maxLength: 4000 }),
    awardDate: Type.String({ format: 'date' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    obligatedAmount: Type.String({ pattern: '^-?[0-9]{1,24}(\\.[0-9]{1,6})?$' }),
    recipient: Type.Object({ name: Name }, { additionalProperties: false }),
    agency: Type.Object({ name: Name }, { additionalProperties: false }),
    sector: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]),
    ticker: Type.Union([Type.String({ pattern: '^[A-Z0-9.:-]{1,32}$' }), Type.Null()]),
    parentSourceAwardId: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]),
    sourceUrl: Type.String({ format: 'uri' }),
    observedAt: Type.String({ format: 'date-time' }),
    entity: Open,
    revenueComparison: Open,
    details: Type.Optional(AwardDetails),
  },
  { additionalProperties: false },
);

export type AwardRecordValue = Static<typeof AwardRecord>;
