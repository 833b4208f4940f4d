// What the licensed vendors cover here: US listings, written as the service writes them (AAPL, BRK-B).
const US_LISTING = /^[A-Z][A-Z0-9]{0,5}(-[A-Z])?$/;

/** Whether a provider symbol is a US listing (no exchange suffix, index caret or currency or future mark). */
export const usListing = (symbol: string) => US_LISTING.test(symbol);

/** Today's date at UTC, YYYY-MM-DD. */
export const today = (clock: () => Date) => clock().toISOString().slice(0, 10);

/** A split as shares after for shares before (4 for a 4-for-1 split, 1 for 10 for a 1-for-10). */
export function splitRatio(factor: number): { numerator: number; denominator: number } {
  if (factor >= 1) return { numerator: Number(factor.toPrecision(10)), denominator: 1 };
  return { numerator: 1, denominator: Number((1 / factor).toPrecision(10)) };
}
