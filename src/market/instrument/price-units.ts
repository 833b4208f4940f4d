// Prices in a listing's quoted unit: main units times the listing's factor (100 for pence, cents, agorot).
import type { Resolved } from '../symbology/resolve.js';

/** A price in the resolution's currency: minor units for terminal-form London, Johannesburg and Tel Aviv. */
export function inPriceCurrency(
  value: number | string | null | undefined,
  resolved: Resolved,
): number | null {
  return typeof value === 'number' ? scalePrice(value, resolved.priceFactor ?? 1) : null;
}

/** A main-unit price times a listing's factor (100 for pence), to six decimals as prices are published. */
export function scalePrice(value: number, factor: number): number {
  return factor === 1 ? value : Math.round(value * factor * 1e6) / 1e6;
}
