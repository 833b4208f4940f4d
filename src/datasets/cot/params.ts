// The Commitments of Traders' own parameters: a contract's code, the report family and its trader classes.
import { Type } from 'typebox';
import { AppError } from '../../kernel/errors.js';

export const COT_PARAMS = {
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
};

export const LEGACY_CLASSES = ['noncommercial', 'commercial', 'nonreportable'] as const;
export const DISAGGREGATED_CLASSES = [
  'producer',
  'swap',
  'managed-money',
  'other-reportable',
  'nonreportable',
] as const;

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
