// One read of a stored listing: its daily bars, its corporate actions (the current versions, or those known
// at a past instant) and the spans over which each type is known, repaired together.
import type { Kysely } from 'kysely';
import type { CorporateAction, HeldListing } from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';
import { storedBars } from '../bars/stored.js';
import { repairListing } from '../compute/repair/index.js';
import { quotedInMinorUnits } from '../symbology/tables.js';

/** Reads a listing as stored now, with its actions as known at `knownBy` when given. */
export function listingReader(
  db: Kysely<Database>,
  symbol: string,
  knownBy?: string,
): () => Promise<HeldListing> {
  return async () => {
    const [rows, known, { bars, files }] = await Promise.all([
      actionVersions(db, symbol, knownBy),
      actionSpans(db, symbol, knownBy),
      storedBars(db, symbol),
    ]);
    const repaired = repairListing(quotedInMinorUnits(symbol), bars, rows.map(actionOf));
    return {
      bars: repaired.bars,
      actions: { actions: repaired.actions, known },
      repairs: repaired.repairs,
      files,
    };
  };
}

/** The versions of the listing's actions current now, or at `knownBy`, oldest first. */
function actionVersions(db: Kysely<Database>, symbol: string, knownBy: string | undefined) {
  let versions = db
    .selectFrom('market_actions')
    .select(['date', 'type', 'amount', 'numerator', 'denominator', 'known_at', 'source'])
    .where('symbol', '=', symbol);
  versions =
    knownBy === undefined
      ? versions.where('superseded_at', 'is', null)
      : versions
          .where('known_at', '<=', knownBy)
          .where((eb) => eb.or([eb('superseded_at', 'is', null), eb('superseded_at', '>', knownBy)]));
  return versions.orderBy('date').orderBy('type').execute();
}

/** The spans over which each type of action is known, now or by `knownBy`. */
function actionSpans(db: Kysely<Database>, symbol: string, knownBy: string | undefined) {
  let spans = db
    .selectFrom('market_action_spans')
    .select(['type', 'start', 'end'])
    .where('symbol', '=', symbol);
  if (knownBy !== undefined) spans = spans.where('known_at', '<=', knownBy);
  return spans.execute();
}

function actionOf(r: Awaited<ReturnType<typeof actionVersions>>[number]): CorporateAction {
  return {
    date: r.date,
    type: r.type,
    ...(r.amount !== null ? { amount: Number(r.amount) } : {}),
    ...(r.numerator !== null ? { numerator: Number(r.numerator) } : {}),
    ...(r.denominator !== null ? { denominator: Number(r.denominator) } : {}),
    knownAt: r.known_at,
    file: r.source,
  };
}
