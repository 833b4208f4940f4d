// Parameter definitions shared by the dataset routes (spec: Parameter definitions).
import { Type } from 'typebox';
import { AppError } from '../kernel/errors.js';

const nonBlank = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const P = {
  symbol: Type.String({
    pattern: '^[A-Za-z0-9.:-]{1,32}$',
    description: 'Ticker symbol: 1-32 of A-Z a-z 0-9 . : -; upper-cased before use.',
    examples: ['AAPL'],
  }),
  ticker: Type.String({
    pattern: '^[A-Za-z0-9.:-]{1,32}$',
    description: 'Ticker symbol: 1-32 of A-Z a-z 0-9 . : -; upper-cased before use.',
  }),
  contractCode: Type.String({
    pattern: '^[A-Za-z0-9]{5}[A-Za-z0-9+]$',
    description: 'CFTC contract market code: five alphanumerics then an alphanumeric or +; upper-cased.',
    examples: ['067651'],
  }),
  report: Type.Enum(['legacy', 'disaggregated'], {
    default: 'legacy',
    description: 'Report family.',
  }),
  traderClass: Type.Enum(
    ['noncommercial', 'commercial', 'nonreportable', 'producer', 'swap', 'managed-money', 'other-reportable'],
    {
      description:
        'Trader class of the selected report. legacy: noncommercial (default), commercial, nonreportable. ' +
        'disaggregated: producer, swap, managed-money (default), other-reportable, nonreportable.',
    },
  ),
  jurisdiction: Type.String({ pattern: '^[A-Za-z]{2,3}$', description: 'Jurisdiction code: 2-3 letters.' }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 currency code: 3 letters.' }),
  agency: nonBlank(200, 'Awarding agency name: 1-200 characters.'),
  sector: nonBlank(200, 'Sector: 1-200 characters.'),
  query: nonBlank(
    200,
    'Words to find in title, recipient and agency, every one of them, each whole, in any case and with or without accents: 1-200 characters.',
  ),
  source: Type.String({ pattern: '^[a-z0-9_-]{1,64}$', description: 'Source id: 1-64 of a-z 0-9 _ -.' }),
  id: Type.String({ pattern: '^[0-9a-f]{40}$', description: '40 lowercase hex characters.' }),
  parentId: Type.String({ pattern: '^[0-9a-f]{40}$', description: 'Id of a prime award: 40 lowercase hex.' }),
  awardType: Type.Enum(['prime', 'subaward', 'modification', 'notice'], { description: 'Award type.' }),
  from: Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD; on or before to.' }),
  to: Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD; on or after from.' }),
  asOf: Type.String({ format: 'date', description: 'Point in time YYYY-MM-DD: only what was known then.' }),
  fiscalYear: Type.Integer({ minimum: 2000, maximum: 2100, description: 'US federal fiscal year.' }),
  year: Type.Integer({ minimum: 1900, maximum: 2100, description: 'Year, 1900-2100.' }),
  minAmount: Type.String({
    pattern: '^[0-9]{1,24}(\\.[0-9]{1,6})?$',
    description: 'Nonnegative decimal as a string: 1-24 digits, optionally a point and 1-6 digits.',
    examples: ['1000000.50'],
  }),
  cursor: nonBlank(1024, 'Opaque cursor from a previous nextCursor.'),
  revisionsCursor: nonBlank(1024, 'Opaque cursor from a previous revisions page.'),
  limit: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: 50,
    description: 'Rows per page, 1-200; default 50.',
  }),
  metric: Type.String({ pattern: '^[a-z0-9_]{1,80}$', description: 'Metric id: 1-80 of a-z 0-9 _.' }),
  basis: Type.Enum(['reported', 'adjusted', 'constant_currency', 'organic'], { description: 'Basis.' }),
};

export const LEGACY_CLASSES = ['noncommercial', 'commercial', 'nonreportable'] as const;
export const DISAGGREGATED_CLASSES = [
  'producer',
  'swap',
  'managed-money',
  'other-reportable',
  'nonreportable',
] as const;

/** from must be on or before to. */
export function checkRange({ query }: { query: { from?: string; to?: string } }): void {
  const { from, to } = query;
  if (from !== undefined && to !== undefined && from > to) {
    throw new AppError('invalid_params', `parameter "from" (${from}) is after "to" (${to})`);
  }
}

/** traderClass must belong to the selected report. */
export function checkTraderClass({ query }: { query: { report?: string; traderClass?: string } }): void {
  const report = query.report ?? 'legacy';
  const { traderClass } = query;
  if (traderClass === undefined) return;
  const allowed: readonly string[] = report === 'legacy' ? LEGACY_CLASSES : DISAGGREGATED_CLASSES;
  if (!allowed.includes(traderClass)) {
    throw new AppError(
      'invalid_params',
      `parameter "traderClass": "${traderClass}" is not a class of the ${report} report; use one of ${allowed.join(', ')}`,
    );
  }
}
