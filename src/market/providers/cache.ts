// The upstream's answers kept in the store, so every instance shares them and a restart keeps them: one JSON
// document a key (`quote:AAPL`, `bars:AAPL`, `summary:AAPL`), with when it was fetched and until when it is fresh.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export interface Cached<T> {
  value: T;
  fetchedAt: string;
  /** Past this time the document is asked for again; it is still served while the upstream fails. */
  freshUntil: string;
}

export class MarketCache {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
  ) {}

  async get<T>(key: string): Promise<(Cached<T> & { fresh: boolean }) | null> {
    return (await this.many<T>([key])).get(key) ?? null;
  }

  async many<T>(keys: string[]): Promise<Map<string, Cached<T> & { fresh: boolean }>> {
    const out = new Map<string, Cached<T> & { fresh: boolean }>();
    if (keys.length === 0) return out;
    const rows = await this.db
      .selectFrom('market_cache')
      .select(['key', 'value', 'fetched_at', 'fresh_until'])
      .where('key', 'in', keys)
      .execute();
    const now = this.now().toISOString();
    for (const row of rows) {
      out.set(row.key, {
        value: JSON.parse(row.value) as T,
        fetchedAt: row.fetched_at,
        freshUntil: row.fresh_until,
        fresh: row.fresh_until > now,
      });
    }
    return out;
  }

  async put(key: string, value: unknown, freshForMs: number): Promise<void> {
    const now = this.now();
    const row = {
      key,
      value: JSON.stringify(value),
      fetched_at: now.toISOString(),
      fresh_until: new Date(now.getTime() + freshForMs).toISOString(),
    };
    await this.db
      .insertInto('market_cache')
      .values(row)
      .onConflict((c) =>
        c.column('key').doUpdateSet({
          value: row.value,
          fetched_at: row.fetched_at,
          fresh_until: row.fresh_until,
        }),
      )
      .execute();
  }

  /** Keeps an answer; a cache that cannot be written only costs the next caller a fetch (`onError` is told). */
  async keep(
    key: string,
    value: unknown,
    freshForMs: number,
    onError: (what: string, error: unknown) => void,
  ): Promise<void> {
    try {
      await this.put(key, value, freshForMs);
    } catch (error) {
      onError(`cache ${key}`, error);
    }
  }
}
