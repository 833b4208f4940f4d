// Corporate actions by ticker: each listing's dividends, capital gain distributions and splits between two
// dates, oldest first, amounts in the listing's price currency — per share as the bars are held (today's
// shares), or as paid then (adjust=none). Each ticker is answered on its own.
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import type { CorporateAction, HeldActions, MarketProvider } from '../../kernel/market-provider.js';
import { type Adjustment, knownSpans, knownThrough, spansText } from '../compute/adjust.js';
import { resolveInput } from '../instrument/instrument.js';
import { scalePrice } from '../instrument/price-units.js';
import { checkedTickers } from '../quotes/quotes.js';
import { type Resolved, shown } from '../symbology/resolve.js';
import { ANSWER_WITHIN_MS, Deadline } from '../verb/deadline.js';
import { checkedAsOf, checkedDate, uniqueInputs } from '../verb/request.js';
import { STORED } from '../verb/sources.js';

export const ACTION_TYPES = ['dividend', 'split', 'capitalGain'] as const;
/** How amounts are stated: in today's shares (as history's default prices), or as paid then. */
export const ACTION_ADJUSTMENTS = ['split', 'none'] as const;

const PLURAL: Record<CorporateAction['type'], string> = {
  dividend: 'dividends',
  split: 'splits',
  capitalGain: 'capital gains',
};

export interface ActionsRequest {
  tickers: string[];
  start?: string;
  end?: string;
  types?: string[];
  adjust?: string;
  /** Read as known at the end of this day (YYYY-MM-DD). */
  asOf?: string;
}

/** The request checked: its tickers, dates, types and adjustment. */
export function checkedActions(request: ActionsRequest, today: string) {
  const tickers = checkedTickers(request);
  checkedDate('start', request.start);
  checkedDate('end', request.end);
  const end = request.end ?? today;
  const start = request.start ?? '0000-01-01';
  if (start > end) throw new AppError('invalid_params', `start (${start}) is after end (${end})`);
  const types = request.types ? uniqueInputs(request.types) : [...ACTION_TYPES];
  const unknown = types.find((t) => !(ACTION_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined || types.length === 0)
    throw new AppError('invalid_params', `types are among ${ACTION_TYPES.join(', ')}`);
  const adjust = (request.adjust ?? 'split') as Adjustment;
  if (!(ACTION_ADJUSTMENTS as readonly string[]).includes(adjust))
    throw new AppError('invalid_params', `adjust must be one of ${ACTION_ADJUSTMENTS.join(', ')}`);
  const knownOn = checkedAsOf(request.asOf, today);
  return {
    tickers,
    start,
    end,
    types: new Set(types as CorporateAction['type'][]),
    adjust,
    ...(request.start ? { since: start } : {}),
    ...(knownOn ? { knownBy: `${knownOn}T23:59:59.999Z` } : {}),
  };
}

/** One unit per 20 tickers, as quotes. */
export function actionsUnits(request: Checked): number {
  return Math.max(1, Math.ceil(request.tickers.length / 20));
}

type Checked = ReturnType<typeof checkedActions>;

/** An action as answered: amounts in the listing's price currency, under the request's adjustment. */
function shownAction(action: CorporateAction, factor: number, priceFactor: number) {
  return {
    date: action.date,
    type: action.type,
    ...(action.amount !== undefined ? { amount: scalePrice(action.amount * factor, priceFactor) } : {}),
    ...(action.numerator !== undefined ? { numerator: action.numerator } : {}),
    ...(action.denominator !== undefined ? { denominator: action.denominator } : {}),
    knownAt: action.knownAt ?? null,
    ...(action.file !== undefined ? { file: action.file } : {}),
    ...(action.repaired
      ? {
          repaired: {
            from: scalePrice(action.repaired.from * factor, priceFactor),
            reason: action.repaired.reason,
          },
        }
      : {}),
    ...(action.inDividend ? { inDividend: true } : {}),
  };
}

/** An amount's factor as paid then: the ratios of the splits after its ex-date (4 before AAPL's 2020 split). */
function splitsAfter(action: CorporateAction, actions: readonly CorporateAction[]): number {
  let factor = 1;
  for (const a of actions)
    if (a.type === 'split' && a.date > action.date && a.numerator && a.denominator)
      factor *= a.numerator / a.denominator;
  return factor;
}

interface ActionsItem {
  input: string;
  status: 'ok' | 'error';
  resolved?: ReturnType<typeof shown>;
  currency?: string;
  adjust?: Adjustment;
  actions?: ReturnType<typeof shownAction>[];
  /** Per type asked, the spans of days over which the listing's actions are known. */
  known?: Record<string, { start: string; end: string }[]>;
  /** When the newest of the listing's actions held became known. */
  asOf?: string | null;
  /** Where the actions came from: the upstream that answered, or stored. */
  source?: string;
  error?: { code: string; message: string };
}

async function actionsItem(provider: MarketProvider, r: Checked, input: string): Promise<ActionsItem> {
  const resolution = resolveInput(input);
  if (resolution.status !== 'ok') return { input, status: 'error' as const, error: resolution.error };
  const { resolved, chain } = resolution;
  const unknown = (message: string): ActionsItem => ({
    input,
    status: 'error',
    resolved: shown(resolved),
    error: { code: 'not_found', message },
  });
  const held = await heldActions(provider, chain, r.since, r.knownBy);
  if (!held)
    return unknown(
      `No prices or corporate actions held for ${input} (looked for ${chain.map((l) => l.symbol).join(', ')} in the stored data and the upstream)`,
    );
  const known = Object.fromEntries([...r.types].map((type) => [type, knownSpans(held.known, type)]));
  const named = [...r.types].map((t) => PLURAL[t]);
  const kinds = named.length > 1 ? `${named.slice(0, -1).join(', ')} or ${named.at(-1)}` : named.join('');
  if (Object.values(known).every((spans) => spans.length === 0))
    return unknown(
      r.knownBy
        ? `No ${kinds} of ${input} were known by ${r.knownBy.slice(0, 10)}.`
        : `No ${kinds} are known for ${input}: its prices were loaded without them (a price file says nothing ` +
            'of dividends or splits). An operator loads them from a Yahoo chart with "quarry ingest yahoo FILE".',
    );
  const inWindow = held.actions.filter((a) => r.types.has(a.type) && a.date >= r.start && a.date <= r.end);
  const splits = knownSpans(held.known, 'split');
  const first = inWindow[0];
  const lastSplitKnown = splits.at(-1)?.end;
  if (
    r.adjust === 'none' &&
    first &&
    !(lastSplitKnown && knownThrough(held.known, 'split', first.date, lastSplitKnown))
  )
    return unknown(
      `Splits of ${input} are known only ${spansText(splits)}: amounts as paid need them from ${first.date} on.`,
    );
  const actions = inWindow.map((a) =>
    shownAction(a, r.adjust === 'none' ? splitsAfter(a, held.actions) : 1, resolved.priceFactor ?? 1),
  );
  const times = held.actions.map((a) => a.knownAt ?? '').sort();
  return {
    input,
    status: 'ok',
    resolved: shown(resolved),
    currency: resolved.currency,
    adjust: r.adjust,
    actions,
    known,
    asOf: times.at(-1) || null,
    source: held.source,
  };
}

/** The actions and bars of the first of a listing's forms that holds either; null when none does. */
async function heldActions(
  provider: MarketProvider,
  chain: readonly Resolved[],
  since: string | undefined,
  knownBy: string | undefined,
): Promise<(HeldActions & { source: string }) | null> {
  for (const listing of chain) {
    const { bars, actions: held, source = STORED } = await provider.listing(listing, since, knownBy);
    if (bars.length || held.actions.length) return { ...held, source };
  }
  return null;
}

/** /v1/actions and market.actions: each ticker's corporate actions in the window, answered on its own. */
export async function actions(
  deps: Pick<Deps, 'market' | 'clock'>,
  r: Checked,
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const deadline = new Deadline(answerWithinMs);
  try {
    const items = await Promise.all(
      r.tickers.map((input) =>
        deadline.race(
          actionsItem(deps.market, r, input),
          (): ActionsItem => ({ input, status: 'error', error: deadline.error }),
        ),
      ),
    );
    return {
      access: 'market-data',
      adjust: r.adjust,
      start: r.since ?? null,
      end: r.end,
      readAsOf: r.knownBy ?? null,
      items,
    };
  } finally {
    deadline.clear();
  }
}
