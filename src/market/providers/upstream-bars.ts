// A listing's daily bars and corporate actions from the upstream, kept in the market cache that every instance
// shares: a first fetch reads from the date asked (at most twenty years back), a refresh asks the last days
// again and extends the held copy, or fetches the whole history anew when those days changed (a split or
// dividend moved history). Each copy holds the bars and actions as the upstream sent them; what is served is
// repaired from it once per copy. While the upstream fails, the last copy is served and said to be stale.
import { addDays, yearsBefore } from '../../kernel/dates.js';
import type { Bar, CorporateAction, Dispute, HeldListing, Repair } from '../../kernel/market-provider.js';
import { repairListing } from '../compute/repair/index.js';
import { quotedInMinorUnits } from '../symbology/tables.js';
import type { Cached, MarketCache } from './cache.js';
import { SingleFlight } from './guard.js';
import type { DailyHistory, Upstream } from './upstream.js';

export interface UpstreamBarsOptions {
  barsFreshMs: number;
  now: () => Date;
  onError(what: string, error: unknown): void;
}

/** How far back a first fetch of bars goes, and how many days a refresh asks again to see history unchanged. */
const HISTORY_YEARS = 20;
const OVERLAP_DAYS = 10;

/**
 * The upstream bars held for a symbol from the date they were asked from (absent on copies made before it was
 * kept: those were asked for the whole history), and the corporate actions among them, each known from the
 * fetch that first brought it (absent on copies made before actions were kept). `repairs` is on copies made
 * when bars were kept repaired.
 */
type HeldBars = {
  bars: Bar[];
  from?: string;
  actions?: CorporateAction[];
  repairs?: Repair[];
  /** The action types the upstream states all of over the bars' days (absent: dividends and splits). */
  known?: readonly CorporateAction['type'][];
  /** The upstream that answered (absent on copies made before it was kept). */
  source?: string;
  /** Closes a second upstream answered otherwise. */
  disputes?: Dispute[];
};

export class UpstreamBars {
  private readonly flights = new SingleFlight<HeldBars>();
  private readonly parsed = new Map<string, Cached<HeldBars>>();
  private readonly served = new WeakMap<HeldBars, HeldListing>();
  private readonly stale = new Set<string>();

  constructor(
    private readonly upstream: Upstream,
    private readonly cache: MarketCache,
    private readonly options: UpstreamBarsOptions,
  ) {}

  /** The listing as served from the upstream's bars: every bar since `since` (default: twenty years back). */
  async listing(symbol: string, since = this.deepest()): Promise<HeldListing> {
    const held = await this.held(symbol, since);
    let answer = this.served.get(held);
    if (!answer) {
      answer = servedListing(symbol, held);
      this.served.set(held, answer);
    }
    return answer;
  }

  /** Whether the symbol's bars were last served from an old copy because the upstream failed. */
  isStale(symbol: string): boolean {
    return this.stale.has(symbol);
  }

  private deepest(): string {
    return yearsBefore(this.options.now().toISOString(), HISTORY_YEARS);
  }

  private async held(symbol: string, since: string): Promise<HeldBars> {
    const covers = (held: HeldBars) => (held.from ?? '') <= since;
    // A fresh copy this process already parsed is used as it is: a series is thousands of bars, read by every
    // computed field of every request.
    const parsed = this.parsed.get(symbol);
    if (parsed && parsed.freshUntil > this.options.now().toISOString() && covers(parsed.value))
      return parsed.value;
    const key = `bars:${symbol}`;
    const copy = await this.cache.get<HeldBars>(key);
    if (copy?.fresh && covers(copy.value)) {
      this.stale.delete(symbol);
      this.parsed.set(symbol, copy);
      return copy.value;
    }
    const held = copy && covers(copy.value) ? copy.value : null;
    try {
      const fetch = () =>
        this.flights.run(symbol, async () => {
          const fetched = held?.actions
            ? await this.extend(symbol, held, since)
            : await this.whole(symbol, since);
          const doc: HeldBars = {
            bars: fetched.bars,
            from: held?.from ?? since,
            actions: knownFrom(fetched.actions, held?.actions ?? [], this.options.now().toISOString()),
            ...(fetched.known ? { known: fetched.known } : {}),
            ...(fetched.source ? { source: fetched.source } : {}),
            ...disputesKept(held?.disputes, fetched),
          };
          await this.cache.keep(key, doc, this.options.barsFreshMs, this.options.onError);
          return doc;
        });
      // A fetch already in flight for a shorter history does not serve a caller that needs more.
      let answer = await fetch();
      if (!covers(answer)) answer = await fetch();
      this.stale.delete(symbol);
      return answer;
    } catch (error) {
      this.options.onError(`bars ${symbol}`, error);
      if (!copy) return { bars: [] };
      this.stale.add(symbol);
      return copy.value;
    }
  }

  /**
   * Bars extended from the held copy: the last days are asked again, and when any of them differs from what is
   * held (a split or dividend changed history), the whole history is fetched anew.
   */
  private async extend(symbol: string, held: HeldBars, since: string): Promise<DailyHistory> {
    const last = held.bars.at(-1);
    if (!last) return this.whole(symbol, since);
    const from = addDays(last.date, -OVERLAP_DAYS);
    const recent = await this.upstream.bars(symbol, from);
    const bars = extended(held.bars, recent.bars);
    if (!bars) return this.whole(symbol, since);
    const before = (held.actions ?? []).filter((a) => a.date < from);
    return {
      bars,
      actions: [...before, ...recent.actions],
      ...(recent.known ? { known: recent.known } : {}),
      ...(recent.source ? { source: recent.source } : {}),
      ...(recent.disputes ? { disputes: recent.disputes } : {}),
    };
  }

  /** The bars from `since` (at most twenty years back) to today. */
  private whole(symbol: string, since: string): Promise<DailyHistory> {
    const deepest = this.deepest();
    return this.upstream.bars(symbol, since < deepest ? deepest : since);
  }
}

/**
 * A copy as served: repaired, its actions known for dividends and splits over the days the bars span (the
 * chart is asked for both).
 */
function servedListing(symbol: string, held: HeldBars): HeldListing {
  const first = held.bars[0];
  const last = held.bars.at(-1);
  const known =
    first && last && held.actions
      ? (held.known ?? (['dividend', 'split'] as const)).map((type) => ({
          type,
          start: first.date,
          end: last.date,
        }))
      : [];
  const repaired = repairListing(quotedInMinorUnits(symbol), held.bars, held.actions ?? []);
  return {
    bars: repaired.bars,
    actions: { actions: repaired.actions, known },
    // A copy kept before bars were kept as sent holds them repaired, and what was repaired beside them.
    repairs: repaired.repairs.length ? repaired.repairs : (held.repairs ?? []),
    ...(held.source ? { source: held.source } : {}),
    ...(held.disputes?.length ? { disputes: held.disputes } : {}),
  };
}

/** The disputes of a copy: those held, a day the fetch disputed again taking the fetch's, oldest first. */
function disputesKept(held: Dispute[] | undefined, fetched: DailyHistory): { disputes?: Dispute[] } {
  const byDay = new Map((held ?? []).map((d) => [`${d.date} ${d.source}`, d]));
  for (const d of fetched.disputes ?? []) byDay.set(`${d.date} ${d.source}`, d);
  const kept = [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return kept.length ? { disputes: kept } : {};
}

/** Actions fetched, each known from when it was first held (the same action held before keeps its time). */
function knownFrom(
  fetched: CorporateAction[],
  held: readonly CorporateAction[],
  now: string,
): CorporateAction[] {
  const key = (a: CorporateAction) => `${a.date}|${a.type}|${a.amount}|${a.numerator}|${a.denominator}`;
  const times = new Map(held.map((a) => [key(a), a.knownAt]));
  return fetched.map((a) => ({ ...a, knownAt: a.knownAt ?? times.get(key(a)) ?? now }));
}

/** `held` continued by `recent`, or null when they disagree on a day both hold (history was adjusted). */
export function extended(held: Bar[], recent: Bar[]): Bar[] | null {
  const first = recent[0];
  if (!first) return held;
  const byDate = new Map(held.map((b) => [b.date, b]));
  for (const bar of recent) {
    const old = byDate.get(bar.date);
    if (old && Math.abs(old.close - bar.close) > 1e-6 * Math.max(1, Math.abs(old.close))) return null;
  }
  return [...held.filter((b) => b.date < first.date), ...recent];
}
