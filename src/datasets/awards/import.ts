// The awards interchange record: one award (prime, subaward, modification or notice) as its source shows it.
import { createHash } from 'node:crypto';
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { indexAward } from '../../store/awards-search.js';
import type { WriteOutcome } from '../../store/revisions.js';
import { amountKey, amountMicros, fiscalYear } from './derive.js';

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
    lastModified: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
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

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** The stable id of an award: its source and the source's own id. */
export function awardId(source: string, sourceAwardId: string): string {
  return sha1(`${source}:${sourceAwardId}`);
}

export const awardsImporter: Importer<AwardRecordValue> = {
  dataset: 'awards',
  record: AwardRecord,
  check(record) {
    if (record.parentSourceAwardId !== null && record.awardType === 'prime') {
      return 'a prime award has no parentSourceAwardId';
    }
    return null;
  },
  async write(tx, given, meta): Promise<WriteOutcome> {
    const id = awardId(given.source, given.sourceAwardId);
    const current = await tx
      .selectFrom('awards')
      .select(['row_id', 'revision_id', 'revision', 'details'])
      .where('id', '=', id)
      .where('is_current', '=', 1)
      .executeTakeFirst();
    // Two views of one award (a search row, its detail) each say some details: what one says adds to what
    // is held, so reading both again changes nothing.
    const held = current?.details ? (JSON.parse(current.details) as Record<string, unknown>) : null;
    const record = held && given.details ? { ...given, details: { ...held, ...given.details } } : given;
    // When the source was observed is not what it says: observing the same award again is no new revision.
    const revisionId = sha1(canonicalJson({ ...record, observedAt: null }));
    if (current?.revision_id === revisionId) return 'unchanged';
    if (current)
      await tx.updateTable('awards').set({ is_current: 0 }).where('row_id', '=', current.row_id).execute();
    const inserted = await tx
      .insertInto('awards')
      .values({
        id,
        revision_id: revisionId,
        source: record.source,
        source_award_id: record.sourceAwardId,
        jurisdiction: record.jurisdiction,
        award_type: record.awardType,
        title: record.title,
        award_date: record.awardDate,
        fiscal_year: fiscalYear(record.awardDate),
        currency: record.currency,
        obligated_amount: record.obligatedAmount,
        amount_key: amountKey(record.obligatedAmount),
        amount_micros: amountMicros(record.obligatedAmount),
        recipient_name: record.recipient.name,
        agency_name: record.agency.name,
        sector: record.sector,
        ticker: record.ticker,
        parent_id: record.parentSourceAwardId ? awardId(record.source, record.parentSourceAwardId) : null,
        source_url: record.sourceUrl,
        observed_at: record.observedAt,
        entity: record.entity ? JSON.stringify(record.entity) : null,
        revenue_comparison: record.revenueComparison ? JSON.stringify(record.revenueComparison) : null,
        details: record.details ? canonicalJson(record.details) : null,
        revision: (current?.revision ?? 0) + 1,
        is_current: 1,
        loaded_at: meta.loadedAt,
        load_source: meta.source,
      })
      .returning('row_id')
      .executeTakeFirstOrThrow();
    await indexAward(tx, Number(inserted.row_id), {
      title: record.title,
      recipient: record.recipient.name,
      agency: record.agency.name,
    });
    return current ? 'revised' : 'inserted';
  },
};
