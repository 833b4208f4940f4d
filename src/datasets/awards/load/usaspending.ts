// USAspending API v2 responses → award rows: an award's detail (/api/v2/awards/{id}/) is a prime row of its
// kind (contract, IDV, grant, loan); a search (/api/v2/search/spending_by_award/) gives prime rows or, at the
// subawards level, subaward rows under their prime; transactions (/api/v2/transactions/) are modification rows
// under their award, de-obligations staying negative (transactions.ts). Amounts stay the decimals the source wrote.
import type { Kysely } from 'kysely';
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { SourceError, type SourceFile, wholeJson } from '../../../ingest/source.js';
import { recordAt } from '../../../kernel/validation.js';
import type { Database } from '../../../store/schema.js';
import { type Entity, entityOf, type RegistrantNames, registrantNames } from '../entity.js';
import type { AwardRecordValue } from '../import.js';
import { naicsSector } from '../sectors.js';

export type Out = AsyncGenerator<{ line: number; value: AwardRecordValue }>;
export type Json = Record<string, unknown>;

export const AWARD_DETAIL: FileKind = {
  name: 'USAspending award detail (/api/v2/awards/{id}/)',
  recognises: (head) => /^\s*\{\s*"id"\s*:/.test(head) && head.includes('"generated_unique_award_id"'),
};
export const AWARD_SEARCH: FileKind = {
  name: 'USAspending award search (/api/v2/search/spending_by_award/)',
  recognises: (head) => head.includes('"spending_level"') && /"(Award ID|Sub-Award ID)"/.test(head),
};

export const PAGE = 'https://www.usaspending.gov/award/';

/** USAspending's IGF::OT::IGF-style markers before a description say how work is classed, not what it is. */
export const cleanTitle = (text: unknown) =>
  String(text ?? '')
    .replace(/^(\s*IGF::[A-Z]+::IGF\s*)+/i, '')
    .trim();

/** A JSON number as the decimal string it was written as (to the cent, as USAspending gives amounts). */
export function decimal(value: unknown): string | null {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const text = value.toFixed(2).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

export const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * The fields every USAspending row shares; observedAt is when Quarry read the file. The listed company the
 * recipient is (see entity.ts) gives the row its ticker.
 */
export function base(context: LoadContext, entity: Entity | null = null, sector: string | null = null) {
  return {
    source: 'usaspending',
    jurisdiction: 'US',
    currency: 'USD',
    sector,
    ticker: entity?.ticker ?? null,
    entity: entity ? { ...entity } : null,
    revenueComparison: null,
    observedAt: context.now.toISOString(),
  };
}

/** What the readers need from the store: registrant names, and the prime awards held (for transactions). */
export interface Held {
  names: RegistrantNames;
  primes: Map<string, { recipient: string; agency: string; entity: string | null }>;
}

export async function* awardDetail(source: SourceFile, context: LoadContext<Held>): Out {
  const d = recordAt(await wholeJson(source)) ?? {};
  const id = str(d.generated_unique_award_id);
  const recipient = str(recordAt(d, 'recipient')?.recipient_name);
  const toptier = recordAt(d, 'awarding_agency', 'toptier_agency');
  const date = str(d.date_signed) ?? str(recordAt(d, 'period_of_performance')?.start_date);
  if (!id || !recipient || !toptier || !date)
    throw new SourceError(
      source.name,
      null,
      'not a USAspending award detail (id, recipient, agency and date expected)',
    );
  const loan = d.category === 'loans';
  const amount = decimal(loan ? d.total_subsidy_cost : d.total_obligation);
  if (amount === null) throw new SourceError(source.name, null, `award ${id} states no obligation`);
  const parent = str(recordAt(d, 'parent_award')?.generated_unique_award_id);
  const parentRecipient = str(recordAt(d, 'recipient')?.parent_recipient_name);
  const entity = entityOf(context.prepared.names, recipient, parentRecipient);
  const subAgency = str(recordAt(d, 'awarding_agency', 'subtier_agency')?.name);
  const modified = str(d.last_modified_date);
  const faceValue = decimal(d.total_loan_value);
  yield {
    line: 1,
    value: {
      ...base(context, entity, naicsSector(recordAt(d, 'latest_transaction_contract_data')?.naics)),
      sourceAwardId: id,
      awardType: 'prime',
      title: cleanTitle(d.description),
      awardDate: date,
      obligatedAmount: amount,
      recipient: { name: recipient },
      agency: { name: String(toptier.name) },
      parentSourceAwardId: null,
      sourceUrl: `${PAGE}${id}`,
      details: {
        amountKind: loan ? 'loan_subsidy_cost' : 'obligation',
        ...(loan && faceValue !== null ? { faceValue } : {}),
        ...(subAgency ? { subAgency } : {}),
        ...(parent ? { parentAward: parent } : {}),
        ...(modified ? { lastModified: modified } : {}),
      },
    },
  };
}

/** A subaward of a search for subawards; its id is not unique alone, so it is keyed with its prime and date. */
function subawardRecord(
  file: string,
  line: number,
  r: Json,
  agency: string | null,
  context: LoadContext<Held>,
): AwardRecordValue {
  const prime = str(r.prime_award_generated_internal_id);
  const date = str(r['Sub-Award Date']);
  const amount = decimal(r['Sub-Award Amount']);
  const name = str(r['Sub-Awardee Name']);
  if (!prime || !date || amount === null || !name || !agency)
    throw new SourceError(
      file,
      line,
      'a subaward needs its prime award, date, amount, sub-awardee and agency',
    );
  const subAgency = str(r['Awarding Sub Agency']);
  return {
    ...base(context, entityOf(context.prepared.names, name), naicsSector(r.NAICS ?? r['NAICS Code'])),
    sourceAwardId: `${prime}/${r['Sub-Award ID']}/${date}`,
    awardType: 'subaward',
    title: cleanTitle(r['Sub-Award Description']),
    awardDate: date,
    obligatedAmount: amount,
    recipient: { name },
    agency: { name: agency },
    parentSourceAwardId: prime,
    sourceUrl: `${PAGE}${prime}`,
    details: { amountKind: 'obligation', ...(subAgency ? { subAgency } : {}) },
  };
}

export async function* awardSearch(source: SourceFile, context: LoadContext<Held>): Out {
  const body = (await wholeJson(source)) as { spending_level?: unknown; results?: Json[] };
  if (!Array.isArray(body.results))
    throw new SourceError(source.name, null, 'a search response holds results');
  const subawards = body.spending_level === 'subawards';
  // The same award twice: the later Last Modified Date is written last, so it is the current revision.
  const rows = [...body.results].sort((a, b) =>
    String(a['Last Modified Date'] ?? '').localeCompare(String(b['Last Modified Date'] ?? '')),
  );
  let undated = 0;
  for (const [i, r] of rows.entries()) {
    const line = i + 1;
    const agency = str(r['Awarding Agency']) ?? str(r['Awarding Sub Agency']);
    if (subawards) {
      yield { line, value: subawardRecord(source.name, line, r, agency, context) };
      continue;
    }
    const id = str(r.generated_internal_id);
    const date = str(r['Base Obligation Date']) ?? str(r['Start Date']);
    const amount = decimal(r['Award Amount']);
    const name = str(r['Recipient Name']);
    if (!id || amount === null || !name || !agency)
      throw new SourceError(
        source.name,
        line,
        'an award needs its generated id, amount, recipient and agency',
      );
    if (!date) {
      undated += 1;
      continue;
    }
    const modified = str(r['Last Modified Date']);
    const subAgency = str(r['Awarding Sub Agency']);
    yield {
      line,
      value: {
        ...base(context, entityOf(context.prepared.names, name), naicsSector(r.NAICS ?? r['NAICS Code'])),
        sourceAwardId: id,
        awardType: 'prime',
        title: cleanTitle(r.Description),
        awardDate: date,
        obligatedAmount: amount,
        recipient: { name },
        agency: { name: agency },
        parentSourceAwardId: null,
        sourceUrl: `${PAGE}${id}`,
        details: {
          amountKind: 'obligation',
          ...(subAgency ? { subAgency } : {}),
          ...(modified ? { lastModified: modified } : {}),
        },
      },
    };
  }
  if (undated) context.notes.push(`${undated} awards without a start or base obligation date were left out`);
}

/** Registrant names, for the readers of awards (details, searches, bulk rows): no award held is needed. */
export async function namesHeld(db: Kysely<Database>): Promise<Held> {
  return { names: await registrantNames(db), primes: new Map() };
}

/** Registrant names, and the prime awards held by the source's id (a modification takes its award's parties). */
export async function heldForAwards(db: Kysely<Database>): Promise<Held> {
  const rows = await db
    .selectFrom('awards')
    .select(['source_award_id', 'recipient_name', 'agency_name', 'entity'])
    .where('source', '=', 'usaspending')
    .where('award_type', '=', 'prime')
    .where('is_current', '=', 1)
    .execute();
  return {
    names: await registrantNames(db),
    primes: new Map(
      rows.map((r) => [
        r.source_award_id,
        { recipient: r.recipient_name, agency: r.agency_name, entity: r.entity },
      ]),
    ),
  };
}
