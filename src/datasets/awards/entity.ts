// Listed companies behind award recipients, by a conservative rule: a recipient's name (or its parent's, where
// the source gives one) links to an SEC registrant only when, with case, punctuation, a state tag ("/DE/")
// and legal forms (Inc, Corp, Co, LLC, Ltd, plc, …) taken off, it is exactly one registrant's name, and no
// other registrant (another CIK) has that name. Anything less links nothing: a wrong link is worse than none.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export interface Entity {
  ticker: string;
  cik: string;
  name: string;
  matchedBy: 'recipient_name' | 'parent_recipient_name';
}

const LEGAL_FORMS = new Set(
  'INC INCORPORATED CORP CORPORATION CO COMPANY LLC LTD LIMITED PLC LP LLP NV SA AG SE THE'.split(' '),
);

/** A name as the rule compares names. */
export function comparable(name: string): string {
  const words = name
    .toUpperCase()
    .replace(/\/[A-Z]{2,3}\//g, ' ')
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  while (words.length > 1 && LEGAL_FORMS.has(words.at(-1) as string)) words.pop();
  while (words.length > 1 && words[0] === 'THE') words.shift();
  return words.join(' ');
}

/** Registrants by comparable name; a name two CIKs share maps to null (no link). */
export type RegistrantNames = Map<string, Omit<Entity, 'matchedBy'> | null>;

export async function registrantNames(db: Kysely<Database>): Promise<RegistrantNames> {
  const rows = await db
    .selectFrom('registrants')
    .select(['ticker', 'cik', 'name'])
    .where('is_current', '=', 1)
    .where('listed', '=', 1)
    .orderBy('rank')
    .execute();
  const names: RegistrantNames = new Map();
  for (const r of rows) {
    const key = comparable(r.name);
    if (!key) continue;
    const held = names.get(key);
    if (held === undefined) names.set(key, { ticker: r.ticker, cik: r.cik, name: r.name });
    else if (held !== null && held.cik !== r.cik) names.set(key, null);
  }
  return names;
}

/** The registrant a recipient (or, failing that, its parent) is, by the rule above; null when none is. */
export function entityOf(names: RegistrantNames, recipient: string, parent?: string | null): Entity | null {
  const direct = names.get(comparable(recipient));
  if (direct) return { ...direct, matchedBy: 'recipient_name' };
  const viaParent = parent ? names.get(comparable(parent)) : undefined;
  return viaParent ? { ...viaParent, matchedBy: 'parent_recipient_name' } : null;
}

/** The registrant a sole winner is, by the same rule; none for a group of winners, whose award is no one's alone. */
export function soleWinnerEntity(
  held: { names: RegistrantNames } | undefined,
  winners: string[],
): Entity | null {
  return held && winners.length === 1 ? entityOf(held.names, winners[0]!) : null;
}
