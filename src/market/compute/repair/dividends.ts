// Yahoo's known errors in a listing's payments, judged against the listing's own prices (docs/adr/038). Each
// rule reads what a dividend does to the price: on its ex-date the price falls by about the dividend, so a
// payment the price did not fall by is not the size it says, and of two records of one payment the one the
// price fell on is the real one. Pure: bars and actions in, actions out (the same array when nothing changes).
//
// - A dividend paid on a split's ex-date that Yahoo left in the shares before the split is divided by the
//   split's ratio, when that brings it to the listing's usual share of the price.
// - On a listing quoted in minor units (pence, cents, agorot), a dividend sent in the other unit is scaled
//   back: one of a tenth of the price or more that the price did not fall by a quarter of, or one twenty
//   times the usual share or more, is a hundred times too large; one under a twentieth of the usual share
//   whose ex-date fall matches a hundred times it is a hundred times too small.
// - Two records of one dividend (a week apart or less, amounts within a quarter of each other): the one whose
//   ex-date shows the smaller fall is a phantom, served as 0 with what was sent.
// - A capital gain on the ex-date of a dividend at least as large is inside that dividend: marked so that the
//   total return counts it once.
import type { Bar, CorporateAction } from '../../../kernel/market-provider.js';

/** A dividend's place among the bars: its share of the close before its ex-date, and the fall on that day. */
interface Judged {
  index: number;
  date: string;
  /** The amount as now judged (the sent one until a rule changes it). */
  amount: number;
  share: number;
  /** How far the price fell from the close before: the larger of the gap at the open and the close's move. */
  fall: number;
}

/** A dividend of a tenth of the price or more is judged by its ex-date's fall. */
const LARGE_SHARE = 0.1;
/** The part of a payment's share the price must fall by on its ex-date for the payment to be taken as sent. */
const FALL_PART = 0.25;
/** A payment this many times the usual share (or a this-th of it) is in the other unit, its fall agreeing. */
const UNUSUAL = 20;
/** Payments needed to know a listing's usual share of the price. */
const USUAL_AMONG = 3;
/** Two dividends at most this many days apart, and within this ratio, are one payment recorded twice. */
const TWIN_DAYS = 7;
const TWIN_RATIO = 1.25;

const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
/** A share of the price as a person reads it: 0.0147 is 1.47%. */
export const percent = (share: number) => `${Number((share * 100).toPrecision(3))}%`;

/**
 * Whether a dividend is in the other unit, a hundred times too large: a tenth of the close before its ex-date or
 * more, and the price fell less than a quarter of that on the day.
 */
export const hundredfoldLarge = (share: number, fall: number) =>
  share >= LARGE_SHARE && fall < share * FALL_PART;
const scaled = (amount: number, by: number) => Math.round(amount * by * 1e10) / 1e10;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1] ?? null;
}

/** The usual share of the price among the listing's other dividends; null with too few to tell. */
const usualBeside = (judged: Judged[], j: Judged) =>
  judged.length < USUAL_AMONG ? null : median(judged.filter((o) => o !== j).map((o) => o.share));

/** Each dividend's share of the close before its ex-date and the fall on it; payments with no bar before are left out. */
function judge(bars: readonly Bar[], actions: readonly CorporateAction[]): Judged[] {
  const out: Judged[] = [];
  let b = 0;
  for (const [index, action] of actions.entries()) {
    if (action.type !== 'dividend' || action.amount === undefined) continue;
    while (b < bars.length && bars[b]!.date < action.date) b += 1;
    const before = bars[b - 1];
    const on = bars[b];
    if (!before || before.close <= 0) continue;
    const moves = on ? [on.close, on.open ?? on.close].map((p) => 1 - p / before.close) : [0];
    const { date, amount } = action;
    out.push({ index, date, amount, share: amount / before.close, fall: Math.max(...moves) });
  }
  return out;
}

/** The actions with the judged dividends' new amounts, each saying what was sent and why. */
class Repairs {
  out: CorporateAction[] | null = null;
  constructor(readonly actions: readonly CorporateAction[]) {}

  set(j: Judged, amount: number, reason: string): void {
    const sent = this.actions[j.index]!;
    this.out ??= [...this.actions];
    this.out[j.index] = { ...sent, amount, repaired: { from: sent.amount ?? amount, reason } };
    j.share *= amount / j.amount;
    j.amount = amount;
  }
}

/** A dividend on a split's ex-date still in the shares before it, when its share divided by the ratio is usual. */
function splitDayDividends(judged: Judged[], repairs: Repairs): void {
  const ratios = new Map<string, { ratio: number; name: string }>();
  for (const a of repairs.actions)
    if (a.type === 'split' && a.numerator && a.denominator)
      ratios.set(a.date, { ratio: a.numerator / a.denominator, name: `${a.numerator}-for-${a.denominator}` });
  for (const j of judged) {
    const split = ratios.get(j.date);
    const usual = usualBeside(judged, j);
    if (!split || usual === null) continue;
    const off = (share: number) => Math.abs(Math.log(share / usual));
    if (off(j.share / split.ratio) >= off(j.share)) continue;
    repairs.set(
      j,
      scaled(j.amount, 1 / split.ratio),
      `paid on the ex-date of a ${split.name} split and sent in the shares before it: divided by ${Number(split.ratio.toPrecision(10))}`,
    );
  }
}

/** Dividends of a minor-unit listing sent in the other unit: a hundred times too large, or too small. */
function unitSlips(judged: Judged[], repairs: Repairs): void {
  for (const j of judged) {
    if (!hundredfoldLarge(j.share, j.fall)) continue;
    repairs.set(
      j,
      scaled(j.amount, 1 / 100),
      `sent in the other unit, a hundred times too large: ${percent(j.share)} of the close before its ex-date, and the price fell ${percent(Math.max(j.fall, 0))} that day`,
    );
  }
  for (const j of judged) {
    const usual = usualBeside(judged, j);
    if (usual === null) continue;
    const ratio = j.share / usual;
    const large = ratio > UNUSUAL && j.fall < j.share * FALL_PART;
    const small = ratio < 1 / UNUSUAL && j.fall >= j.share * 100 * FALL_PART;
    if (!large && !small) continue;
    repairs.set(
      j,
      scaled(j.amount, large ? 1 / 100 : 100),
      `sent in the other unit, a hundred times too ${large ? 'large' : 'small'}: ${percent(j.share)} of the close before its ex-date against a usual ${percent(usual)}, and the price fell ${percent(Math.max(j.fall, 0))} that day`,
    );
  }
}

/** Of two records of one dividend a week apart or less, the one the price did not fall on is served as 0. */
function phantoms(judged: Judged[], repairs: Repairs): void {
  for (const [i, b] of judged.entries()) {
    const a = judged[i - 1];
    if (!a || a.amount === 0 || b.amount === 0) continue;
    const ratio = a.amount / b.amount;
    if (days(a.date, b.date) > TWIN_DAYS || ratio > TWIN_RATIO || ratio < 1 / TWIN_RATIO) continue;
    const [phantom, real] = b.fall > a.fall ? [a, b] : [b, a];
    repairs.set(
      phantom,
      0,
      `a second record of the dividend of ${real.date}: the price fell ${percent(Math.max(real.fall, 0))} on that ex-date and ${percent(Math.max(phantom.fall, 0))} on this one`,
    );
  }
}

/** Capital gains paid on a dividend's ex-date and no larger than it: inside it, counted once. */
function gainsInDividends(actions: readonly CorporateAction[]): readonly CorporateAction[] {
  const dividends = new Map<string, number>();
  for (const a of actions) if (a.type === 'dividend' && a.amount) dividends.set(a.date, a.amount);
  let out: CorporateAction[] | null = null;
  for (const [index, action] of actions.entries()) {
    if (action.type !== 'capitalGain' || action.amount === undefined) continue;
    const dividend = dividends.get(action.date);
    if (dividend === undefined || dividend < action.amount) continue;
    out ??= [...actions];
    out[index] = { ...action, inDividend: true };
  }
  return out ?? actions;
}

/**
 * A listing's actions with Yahoo's known payment errors repaired against its bars (unit slips already
 * repaired); `minorUnits` when the listing is quoted in minor units.
 */
export function repairPayments(
  bars: readonly Bar[],
  actions: readonly CorporateAction[],
  minorUnits: boolean,
): readonly CorporateAction[] {
  if (!actions.some((a) => a.type !== 'split')) return actions;
  const repairs = new Repairs(actions);
  const judged = judge(bars, actions);
  splitDayDividends(judged, repairs);
  if (minorUnits) unitSlips(judged, repairs);
  phantoms(judged, repairs);
  return gainsInDividends(repairs.out ?? actions);
}
