// History rows by ticker and field: prices and volume daily, weekly or monthly from stored daily bars, oldest
// first; statement fields quarterly or annually. Each field that cannot be served is an error on its item.

import type { Deps } from '../../kernel/deps.js';
import type { MarketProvider } from '../../kernel/market-provider.js';
import { resolveInput } from '../instrument/instrument.js';
import { shown } from '../symbology/resolve.js';
import { ANSWER_WITHIN_MS, Deadline } from '../verb/deadline.js';
import { barHistory, barsHeld } from './bars.js';
import { fieldErrors, type HistoryItem, type ServedField } from './item.js';
import type { FieldAnswer } from './request.js';
import { isStatementPeriod, type ReadHistory } from './request.js';
import { statementHistory } from './statements.js';

/** /v1/history and market.history: rows oldest first for tickers x fields between dates. */
export async function history(
  deps: Pick<Deps, 'market' | 'clock'>,
  r: ReadHistory,
  answerWithinMs = ANSWER_WITHIN_MS,
) {
  const provider = deps.market;
  const { fields } = r;
  const deadline = new Deadline(answerWithinMs);
  try {
    const items = await Promise.all(
      r.tickers.map((input) => {
        const item = historyItem(provider, r, fields, input, deps.clock());
        return deadline.race(item, (): HistoryItem => ({ input, status: 'error', error: deadline.error }));
      }),
    );
    return {
      access: 'market-data',
      period: r.period,
      adjust: r.adjust,
      start: r.from,
      end: r.end,
      fields: fields.map((f) => ({
        input: f.input,
        id: f.def?.id ?? null,
        alias: f.alias,
        unit: f.def?.unit ?? null,
      })),
      items,
    };
  } finally {
    deadline.clear();
  }
}

async function historyItem(
  provider: MarketProvider,
  r: ReadHistory,
  fields: FieldAnswer[],
  input: string,
  now: Date,
): Promise<HistoryItem> {
  const resolution = resolveInput(input);
  if (resolution.status !== 'ok') return { input, status: 'error', error: resolution.error };
  const { resolved, chain } = resolution;
  const errors = fieldErrors(fields, resolved);
  const served = fields.filter((f): f is ServedField => f.def !== null && !errors[f.input]);
  let found: Pick<
    HistoryItem,
    'rows' | 'held' | 'stale' | 'repaired' | 'derived' | 'source' | 'files' | 'disputed'
  > = {
    rows: [],
  };
  if (served.length && isStatementPeriod(r.period)) {
    const { missing, ...statements } = await statementHistory(provider, resolved, served, r);
    found = statements;
    for (const f of missing)
      errors[f.input] = { code: 'not_found', message: `no ${r.period} ${f.def.id} stored for ${input}` };
  } else if (served.length) {
    const bars = await barHistory(provider, resolved, chain, served, r, now);
    if (!bars) {
      const held = await barsHeld(provider, chain);
      const window = `No history for ${input} between ${r.from} and ${r.end}`;
      const message = held
        ? `${window}: the bars held for ${held.symbol} run from ${held.first} to ${held.last}. Ask for a window within them.`
        : `${window} (looked for ${chain.map((l) => l.symbol).join(', ')} in the stored data and the upstream). An operator loads bars with "quarry ingest prices FILE --ticker ${resolved.symbol}".`;
      return { input, status: 'error', resolved: shown(resolved), error: { code: 'not_found', message } };
    }
    if ('unknown' in bars)
      return {
        input,
        status: 'error',
        resolved: shown(resolved),
        error: { code: 'not_found', message: bars.unknown },
      };
    const { fieldErrors: unknownFields, ...fromBars } = bars;
    Object.assign(errors, unknownFields);
    found = fromBars;
  }
  const { rows, derived, ...extra } = found;
  const failed = Object.keys(errors).length > 0;
  return {
    input,
    status: failed ? 'partial' : 'ok',
    resolved: shown(resolved),
    rows,
    ...(failed ? { errors } : {}),
    ...(derived ? { derived } : {}),
    ...(r.truncated ? { truncated: { requestedStart: r.start, start: r.from } } : {}),
    ...extra,
  };
}
