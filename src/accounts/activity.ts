// An account's activity: every key action and every operator change, with who, when and from where.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** Who acts, as the activity list names them, and the address they came from. */
export interface Actor {
  /** An account's email, "operator <email>", "cli" or "payment processor". */
  label: string;
  address: string | null;
}

export interface ActivityEntry {
  at: string;
  actor: string;
  action: string;
  detail: string | null;
  address: string | null;
}

/** An operator at the command line (`quarry accounts …`, `quarry keys …`). */
export const CLI_ACTOR: Actor = { label: 'cli', address: null };

export async function recordActivity(
  db: Kysely<Database>,
  accountId: string,
  actor: Actor,
  action: string,
  detail: string | null,
  now: Date,
): Promise<void> {
  await db
    .insertInto('account_activity')
    .values({
      account_id: accountId,
      actor: actor.label,
      action,
      detail,
      address: actor.address,
      created_at: now.toISOString(),
    })
    .execute();
}

/** Newest first. */
export async function listActivity(
  db: Kysely<Database>,
  accountId: string,
  limit = 100,
): Promise<ActivityEntry[]> {
  const rows = await db
    .selectFrom('account_activity')
    .select(['created_at', 'actor', 'action', 'detail', 'address'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    at: r.created_at,
    actor: r.actor,
    action: r.action,
    detail: r.detail,
    address: r.address,
  }));
}
