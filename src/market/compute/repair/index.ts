// A listing's bars and actions as served, Yahoo's known errors repaired (docs/adr/038): on a listing quoted in
// minor units, prices sent in the other unit scaled back (`units.ts`); splits Yahoo missed or applied twice
// (`splits.ts`); then payments judged against the repaired bars (`dividends.ts`). Run once per load or fetch of a
// listing, never per call; the stored rows stay as they were sent, and each value changed says what was sent.
import type { Bar, CorporateAction, Repair } from '../../../kernel/market-provider.js';
import { repairPayments } from './dividends.js';
import { repairSplits } from './splits.js';
import { repairUnitSlips } from './units.js';

export function repairListing(
  minorUnits: boolean,
  bars: readonly Bar[],
  actions: readonly CorporateAction[],
): { bars: readonly Bar[]; actions: readonly CorporateAction[]; repairs: readonly Repair[] } {
  const slips = minorUnits ? repairUnitSlips(bars) : { bars, repairs: [] };
  const split = repairSplits(slips.bars, actions);
  const repairs = slips.repairs.length
    ? [...slips.repairs, ...split.repairs].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    : split.repairs;
  return { bars: split.bars, actions: repairPayments(split.bars, actions, minorUnits), repairs };
}
