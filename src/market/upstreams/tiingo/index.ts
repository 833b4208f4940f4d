// Tiingo: end-of-day prices of US listings as traded, with each day's cash dividend (`divCash`) and split factor
// (`splitFactor`). The bars are brought to today's shares here (each price divided by the splits after it, its
// volume multiplied), and the dividends and splits become the listing's actions, known over the days answered.
// The key goes in the query (`token`), as Tiingo takes it.
import type { Bar, CorporateAction } from '../../../kernel/market-provider.js';
import type { DailyHistory } from '../../providers/upstream.js';
import type { UpstreamDeclaration, Vendor } from '../port.js';
import { splitRatio, today, UsVendor } from '../us.js';

interface Day {
  date: string;
  open?: number | null;
  high?: number | null;
  low?: number | null;
  close?: number | null;
  volume?: number | null;
  divCash?: number;
  splitFactor?: number;
}

const PRECISION = 10;
const exact = (value: number) => Number(value.toPrecision(PRECISION));

/** Days as traded, oldest first, as split-adjusted bars and the actions among them. */
export function tiingoHistory(days: readonly Day[]): DailyHistory {
  const bars: Bar[] = [];
  const actions: CorporateAction[] = [];
  // Walked newest first: `later` is the product of the split factors after the day.
  let later = 1;
  for (let i = days.length - 1; i >= 0; i -= 1) {
    const day = days[i]!;
    const date = day.date.slice(0, 10);
    const price = (value: number | null | undefined) =>
      typeof value === 'number' ? exact(value / later) : null;
    if (typeof day.close === 'number')
      bars.push({
        date,
        open: price(day.open),
        high: price(day.high),
        low: price(day.low),
        close: exact(day.close / later),
        volume: typeof day.volume === 'number' ? Math.round(day.volume * later) : null,
      });
    if (day.divCash) actions.push({ date, type: 'dividend', amount: exact(day.divCash / later) });
    if (day.splitFactor && day.splitFactor !== 1) {
      actions.push({ date, type: 'split', ...splitRatio(day.splitFactor) });
      later *= day.splitFactor;
    }
  }
  return { bars: bars.reverse(), actions: actions.reverse(), known: ['dividend', 'split'] };
}

class Tiingo extends UsVendor implements Vendor {
  readonly name = 'tiingo';

  async bars(symbol: string, from: string): Promise<DailyHistory> {
    const body = await this.http.json(`/tiingo/daily/${encodeURIComponent(symbol.toLowerCase())}/prices`, {
      startDate: from,
      endDate: today(this.context.clock),
      resampleFreq: 'daily',
      token: this.config.key ?? '',
    });
    return tiingoHistory(Array.isArray(body) ? (body as Day[]) : []);
  }
}

export const TIINGO: UpstreamDeclaration = {
  settings: {
    name: 'tiingo',
    keyVariable: 'TIINGO_API_KEY',
    urlVariable: 'QUARRY_TIINGO_URL',
    url: 'https://api.tiingo.com',
    // Tiingo's starter plan: fifty calls an hour, a thousand a day.
    perMinute: 50,
    perDay: 1_000,
  },
  serves:
    'daily bars of US listings with their dividends and splits (prices as traded, brought to today’s shares)',
  make: (config, context) => new Tiingo(config, context),
};
