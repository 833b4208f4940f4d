// One Treasury rate as a daily series, oldest first, each value with when it became known: what the market
// API serves as USGG2YR Index and USGG3M Index. One read while the dataset is unchanged.
import type { Kysely } from 'kysely';
import { cachedRead } from '../../ingest/read-cache.js';
import type { Database } from '../../store/schema.js';
import { knownAt } from '../known.js';
import type { RateSeries } from './params.js';

export interface DailyRate {
  date: string;
  value: number;
  knownAt: string;
}

export function rateSeries(
  db: Kysely<Database>,
  series: RateSeries,
  tenor: string,
): Promise<readonly DailyRate[]> {
  return cachedRead(db, 'treasury-rates', `series:${series}:${tenor}`, async () => {
    const rows = await db
      .selectFrom('treasury_rates')
      .select(['date', 'value', 'known_at'])
      .where('series', '=', series)
      .where('tenor', '=', tenor)
      .where(knownAt(null))
      .orderBy('date')
      .execute();
    return rows.map((r) => ({ date: r.date, value: Number(r.value), knownAt: r.known_at }));
  });
}
