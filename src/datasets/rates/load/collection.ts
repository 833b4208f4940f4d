// Where Treasury publishes what the treasury loader reads: the current year's par yield curve and bill rates
// CSVs, fetched each bond market evening; and what the dataset's freshness is judged from.
import type { Kysely } from 'kysely';
import type { Collection } from '../../../ingest/collect.js';
import type { Database } from '../../../store/schema.js';
import { freshnessSource } from '../../freshness.js';
import { knownAt } from '../../known.js';
import { TREASURY_DAILY, TREASURY_DAYS } from '../calendar.js';

const CSV = '/resource-center/data-chart-center/interest-rates/daily-treasury-rates.csv';

export const treasuryCollection: Collection = {
  agency: { id: 'treasury', variable: 'QUARRY_TREASURY_URL', url: 'https://home.treasury.gov' },
  schedules: [{ job: 'treasury-rates', calendar: TREASURY_DAILY }],
  // This year's files; in the first week of January last year's too, for the days of December after the last
  // fetch of the old year.
  files: (now) => {
    const year = now.getUTCFullYear();
    const years = now.getUTCMonth() === 0 && now.getUTCDate() <= 7 ? [year - 1, year] : [year];
    return years.flatMap((y) =>
      ['daily_treasury_yield_curve', 'daily_treasury_bill_rates'].map((type) => ({
        path: `${CSV}/${y}/all?type=${type}&field_tdr_date_value=${y}&page&_format=csv`,
        name: `${type}_${y}.csv`,
      })),
    );
  },
};

/** The newest day of a series held (or known at an instant). */
const group = (name: string, series: readonly string[]) => ({
  name,
  periods: TREASURY_DAYS,
  lastPeriod: async (db: Kysely<Database>, at: string | null) =>
    (
      await db
        .selectFrom('treasury_rates')
        .select((eb) => eb.fn.max('date').as('last'))
        .where('series', 'in', series)
        .where(knownAt(at))
        .executeTakeFirst()
    )?.last ?? null,
});

/** The freshness groups: an answer is judged by the one it reads (old bills never make a curve stale). */
export const PAR_GROUP = 'par yield curve';
export const BILLS_GROUP = 'bill rates';

/** Par yields and bill rates, each judged on the bond market's calendar. */
export const ratesFreshness = freshnessSource('treasury-rates', 'treasury_rates', treasuryCollection, [
  group(PAR_GROUP, ['par']),
  group(BILLS_GROUP, ['bill-discount', 'bill-coupon']),
]);
