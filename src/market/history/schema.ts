// The request and answer of /v1/history and market.history: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import { ADJUSTMENTS } from '../compute/adjust.js';
import {
  AsOf,
  DateParam,
  FieldErrors,
  FieldsAnswered,
  ItemError,
  ItemHead,
  List,
  Source,
  Stale,
  StaleReason,
} from '../verb/schema.js';
import { PERIODS } from './request.js';

const HistoryRow = Type.Object(
  { date: Type.String({ description: 'YYYY-MM-DD: the bar, or the end of the fiscal period.' }) },
  {
    title: 'HistoryRow',
    description:
      'One member per requested field, keyed as sent: a number, or null where the value is missing.',
    additionalProperties: Type.Union([Type.Number(), Type.Null()]),
  },
);

const HistoryItem = Type.Object(
  {
    ...ItemHead,
    rows: Type.Optional(
      Type.Array(HistoryRow, {
        description: 'Oldest first: date plus one member per requested field, keyed as sent.',
      }),
    ),
    errors: FieldErrors,
    error: ItemError('not_found, or timeout when not ready within 12 seconds'),
    derived: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Dates whose statement values are the full year less Q1 to Q3.',
      }),
    ),
    truncated: Type.Optional(
      Type.Object(
        { requestedStart: Type.String(), start: Type.String() },
        { description: 'Daily history reaches about 20 years: a longer range keeps the newest bars.' },
      ),
    ),
    held: Type.Optional(
      Type.Object(
        { start: Type.String(), end: Type.String() },
        {
          description: 'The dates actually held, when they cover noticeably less than the window asked for.',
        },
      ),
    ),
    repaired: Type.Optional(
      Type.Array(
        Type.Object({
          date: Type.String(),
          field: Type.String({ description: 'open, high, low, close or volume' }),
          from: Type.Number({ description: 'As the source sent it (prices in the main currency).' }),
          to: Type.Number({ description: 'As served, before any adjustment the request asks.' }),
          reason: Type.String({ description: 'Why it was changed: the evidence, in words.' }),
        }),
        {
          description:
            'Bar values in the window served otherwise than the source sent them: a price of a minor-unit listing (London, Johannesburg, Tel Aviv) sent in the other unit, or a bar a split was not applied to (or applied to twice). The rows hold the repaired values; docs/adr/038 gives the rules.',
        },
      ),
    ),
    stale: Stale,
    staleReason: StaleReason,
    source: Source,
    files: Type.Optional(
      Type.Array(
        Type.Object({
          file: Type.String({ description: 'The file as it was loaded (quarry ingest).' }),
          start: Type.String({ description: 'The first day of the window it brought.' }),
          end: Type.String({ description: 'The last day of the window it brought.' }),
        }),
        {
          description:
            "For bars loaded into the store (source stored): the files the window's rows came from, oldest first. A calendar year of a listing's bars names the file last loaded into it.",
        },
      ),
    ),
    disputed: Type.Optional(
      Type.Array(
        Type.Object({
          date: Type.String(),
          field: Type.String({ description: 'close' }),
          source: Type.String({ description: 'The other upstream.' }),
          value: Type.Number({ description: "The other upstream's close, in the same shares (main units)." }),
        }),
        {
          description:
            'Closes in the window a second configured upstream answered otherwise, past 0.1 % of the close served (the second opinion, QUARRY_SECOND_OPINION_DAYS): the row keeps the served close.',
        },
      ),
    ),
  },
  { title: 'HistoryItem' },
);

export const HistoryResponse = Type.Object({
  access: Type.String(),
  period: Type.String(),
  adjust: Type.String({ description: 'How the prices are adjusted: split, none or total.' }),
  start: Type.String(),
  end: Type.String(),
  fields: FieldsAnswered,
  items: Type.Array(HistoryItem),
});

const HistoryPeriod = Type.Optional(Type.Enum([...PERIODS], { description: 'Default daily.' }));

/** How history's prices are adjusted. */
export const HistoryAdjust = Type.Optional(
  Type.Enum([...ADJUSTMENTS], {
    description:
      'split (default): split-adjusted prices, as held; none: as traded (before a split, the price then quoted, and ' +
      'the volume then traded); total: split-adjusted with each dividend reinvested on its ex-date (the newest bar ' +
      'keeps its price, so the ratio of two rows is the total return between them).',
  }),
);

export const HistoryBody = Type.Object(
  {
    tickers: List(100, 'Up to 10 tickers, any form.'),
    fields: List(100, 'Up to 5 fields: prices and volume, or statement fields.'),
    start: DateParam,
    end: DateParam,
    period: HistoryPeriod,
    asOf: AsOf,
    adjust: HistoryAdjust,
  },
  { additionalProperties: false },
);

export const HistoryQuery = Type.Object(
  {
    tickers: Type.String({ minLength: 1, maxLength: 2000 }),
    fields: Type.String({ minLength: 1, maxLength: 1000 }),
    start: DateParam,
    end: DateParam,
    period: HistoryPeriod,
    asOf: AsOf,
    adjust: HistoryAdjust,
  },
  { additionalProperties: false },
);
