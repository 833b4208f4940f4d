// What the licensed vendors cover here: US listings, written as the service writes them (AAPL, BRK-B); and
// what each of their clients starts from.
import type { UpstreamConfig } from '../../kernel/config.js';
import { VendorHttp } from './http.js';
import type { UpstreamContext } from './port.js';

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

/** A vendor of US listings over HTTP: its configuration, and its calls kept within the allowance. */
export abstract class UsVendor {
  protected readonly http: VendorHttp;

  constructor(
    protected readonly config: UpstreamConfig,
    protected readonly context: UpstreamContext,
  ) {
    this.http = new VendorHttp(config, context);
  }

  covers(symbol: string): boolean {
    return usListing(symbol);
  }
}
