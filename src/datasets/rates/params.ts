// treasury-rates' own parameters: a series, a tenor and a day.
import { Type } from 'typebox';
import { AppError } from '../../kernel/errors.js';

/** Par yields, and the bills' two quotes. */
export const RATE_SERIES = ['par', 'bill-discount', 'bill-coupon'] as const;
export type RateSeries = (typeof RATE_SERIES)[number];

/** The par curve's tenors, shortest first, with their length in years. */
export const PAR_TENORS: readonly (readonly [string, number])[] = [
  ['1M', 1 / 12],
  ['1.5M', 1.5 / 12],
  ['2M', 2 / 12],
  ['3M', 3 / 12],
  ['4M', 4 / 12],
  ['6M', 6 / 12],
  ['1Y', 1],
  ['2Y', 2],
  ['3Y', 3],
  ['5Y', 5],
  ['7Y', 7],
  ['10Y', 10],
  ['20Y', 20],
  ['30Y', 30],
];

/** The bills' maturities in weeks. */
export const BILL_TENORS = ['4W', '6W', '8W', '13W', '17W', '26W', '52W'] as const;

export const TENOR = Type.Enum([...PAR_TENORS.map(([t]) => t), ...BILL_TENORS], {
  description: 'Tenor: 1M 1.5M 2M 3M 4M 6M 1Y 2Y 3Y 5Y 7Y 10Y 20Y 30Y (par yields), 4W … 52W (bills).',
});

export const RATE_PARAMS = {
  date: Type.String({
    format: 'date',
    description:
      'Day YYYY-MM-DD: its curve, or the last day on or before it that has one; default the newest.',
  }),
  tenor: TENOR,
  series: Type.Enum(RATE_SERIES, {
    default: 'par',
    description:
      'par (par yield, default), bill-discount or bill-coupon (the bills’ bank discount or coupon equivalent).',
  }),
};

/** A tenor must be one its series has: par yields run 1M to 30Y, bills 4W to 52W. */
export function checkTenor({
  params,
  query,
}: {
  params: { tenor: string };
  query: { series?: RateSeries };
}): void {
  const series = query.series ?? 'par';
  const tenors: readonly string[] = series === 'par' ? PAR_TENORS.map(([t]) => t) : BILL_TENORS;
  if (!tenors.includes(params.tenor))
    throw new AppError(
      'invalid_params',
      `parameter "tenor": ${params.tenor} is not a tenor of ${series}; use one of ${tenors.join(', ')}`,
    );
}
