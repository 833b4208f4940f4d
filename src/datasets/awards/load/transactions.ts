// USAspending's transactions (/api/v2/transactions/) → modification rows under their award, which must be
// held (its detail or search row loaded before): a modification takes its award's recipient, agency and
// listed company. De-obligations stay negative.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { SourceError, type SourceFile, wholeJson } from '../../../ingest/source.js';
import type { Entity } from '../entity.js';
import { base, cleanTitle, decimal, type Held, type Json, type Out, PAGE, str } from './usaspending.js';

export const TRANSACTIONS: FileKind = {
  name: 'USAspending transactions (/api/v2/transactions/)',
  recognises: (head) => head.includes('"results"') && head.includes('"federal_action_obligation"'),
};

/** A contract transaction's award: CONT_TX_{agency}_{idv agency}_{piid}_{mod}_{idv piid}_{n} → CONT_AWD_…. */
export function awardOfTransaction(id: string): string | null {
  const m = /^CONT_TX_([^_]+)_([^_]+)_(.+)_([^_]+)_([^_]+)_(\d+)$/.exec(id);
  return m ? `CONT_AWD_${m[3]}_${m[1]}_${m[5]}_${m[2]}` : null;
}

export async function* transactions(source: SourceFile, context: LoadContext<Held>): Out {
  const body = (await wholeJson(source)) as { results?: Json[] };
  if (!Array.isArray(body.results))
    throw new SourceError(source.name, null, 'a transactions response holds results');
  const { primes } = context.prepared;
  for (const [i, t] of body.results.entries()) {
    const line = i + 1;
    const id = str(t.id);
    const award = context.options.award ?? (id ? awardOfTransaction(id) : null);
    const held = award ? primes.get(award) : undefined;
    const date = str(t.action_date);
    const amount = decimal(t.federal_action_obligation);
    if (!id || !date || amount === null)
      throw new SourceError(source.name, line, 'a transaction needs its id, action date and obligation');
    if (!award || !held)
      throw new SourceError(
        source.name,
        line,
        `the award of ${id} is not held: load its detail or search row first (or name it with --award)`,
      );
    yield {
      line,
      value: {
        ...base(context, held.entity ? (JSON.parse(held.entity) as Entity) : null),
        sourceAwardId: id,
        awardType: 'modification',
        title: cleanTitle(t.description) || String(t.action_type_description ?? ''),
        awardDate: date,
        obligatedAmount: amount,
        recipient: { name: held.recipient },
        agency: { name: held.agency },
        parentSourceAwardId: award,
        sourceUrl: `${PAGE}${award}`,
        details: {
          amountKind: 'obligation',
          ...(str(t.modification_number) ? { modificationNumber: str(t.modification_number) as string } : {}),
        },
      },
    };
  }
}
