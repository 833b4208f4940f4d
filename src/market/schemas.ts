// The market verbs' requests and answers as schemas: the HTTP routes validate and serialise with them, the
// OpenAPI document and the MCP tools' input and output schemas are written from them.
import { Type } from 'typebox';
import { Nullable } from '../kernel/schema.js';
import { PERIODS } from './history-request.js';

const CodeAndMessage = (code: string) =>
  Type.Object({ code: Type.String({ description: code }), message: Type.String() });

/** input, status and resolved, first members of every item. */
export const ItemHead = {
  input: Type.String(),
  status: Type.String({ description: 'ok, partial (some fields have errors) or error' }),
  resolved: Type.Optional(Type.Object({}, { additionalProperties: true })),
};

/** The error of an item that could not be answered at all. */
export const ItemError = (codes: string) => Type.Optional(CodeAndMessage(codes));

/** Errors of single fields, keyed by the field as sent. */
export const FieldErrors = Type.Optional(
  Type.Record(Type.String(), CodeAndMessage('not_found or not_applicable')),
);

/** Each requested field as read: its id, the alias it was sent as, and its unit. */
export const FieldsAnswered = Type.Array(
  Type.Object({
    input: Type.String(),
    id: Nullable(Type.String()),
    alias: Nullable(Type.String()),
    unit: Nullable(Type.String()),
  }),
);

const Resolved = Type.Object({
  ticker: Type.String(),
  symbol: Type.String(),
  exchange: Type.String(),
  mic: Nullable(Type.String()),
  dialect: Type.String({ description: 'service, suffix or terminal: how the input was read.' }),
  assetType: Type.String(),
  name: Type.String(),
  currency: Type.String({
    description: 'Price currency; GBp, ZAr or ILs for terminal-form listings priced in minor units.',
  }),
  note: Type.Optional(Type.String()),
});

const QuoteItem = Type.Object({
  input: Type.String(),
  status: Type.String({ description: 'ok or error' }),
  resolved: Type.Optional(Resolved),
  quote: Type.Optional(
    Type.Object({
      symbol: Type.String(),
      name: Type.String(),
      price: Nullable(Type.Number()),
      currency: Type.String(),
      changePercent: Nullable(Type.Number({ description: 'Percent: 1.5 = 1.5 %.' })),
      previousClose: Nullable(Type.Number()),
      volume: Nullable(Type.Number()),
      marketCap: Nullable(Type.Number({ description: 'Full units of the main currency.' })),
      marketState: Type.String(),
      asOf: Type.String(),
      currencies: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          description: 'Values not in the price currency, e.g. marketCap in GBP.',
        }),
      ),
    }),
  ),
  error: ItemError('not_found'),
});

export const QuotesResponse = Type.Object({ access: Type.String(), items: Type.Array(QuoteItem) });

const DataItem = Type.Object({
  ...ItemHead,
  values: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()]), {
      description: 'Keyed by the field as sent.',
    }),
  ),
  errors: FieldErrors,
  currencies: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Values not in the price currency.' }),
  ),
  periods: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Fiscal period end of each statement value.' }),
  ),
  derived: Type.Optional(
    Type.Array(Type.String(), { description: 'Fields whose value is the full year less Q1 to Q3.' }),
  ),
  error: ItemError('not_found, or timeout when not ready within 12 seconds'),
});

export const DataResponse = Type.Object({
  access: Type.String(),
  period: Type.String(),
  fields: FieldsAnswered,
  items: Type.Array(DataItem),
});

const HistoryItem = Type.Object({
  ...ItemHead,
  rows: Type.Optional(
    Type.Array(Type.Object({ date: Type.String() }, { additionalProperties: true }), {
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
});

export const HistoryResponse = Type.Object({
  access: Type.String(),
  period: Type.String(),
  start: Type.String(),
  end: Type.String(),
  fields: FieldsAnswered,
  items: Type.Array(HistoryItem),
});

const FieldEntry = Type.Object({
  id: Type.String(),
  aliases: Type.Array(
    Type.Object({
      name: Type.String({ description: 'Terminal mnemonic.' }),
      millions: Type.Boolean({
        description: 'Values under this alias are in millions; under the id, full units.',
      }),
    }),
  ),
  unit: Type.String(),
  appliesTo: Type.Array(Type.String(), { description: 'Asset types the field applies to.' }),
  history: Type.Boolean({ description: 'Served by /v1/history.' }),
  group: Type.String({ description: 'quote, profile, valuation, estimate, computed or statement.' }),
});

export const FieldsResponse = Type.Object({
  fields: Type.Array(FieldEntry),
  notServed: Type.Array(Type.Object({ name: Type.String(), reason: Type.String() }), {
    description: 'Terminal fields this service does not serve, with the reason each answers with.',
  }),
});

const TickerList = (maxItems: number) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems });
const Period = Type.Optional(Type.Enum(['annual', 'quarterly']));
const HistoryPeriod = Type.Optional(Type.Enum([...PERIODS]));
const DateParam = Type.Optional(Type.String({ format: 'date' }));

/** Request bodies (POST, and the MCP tools' arguments): lists as arrays. Limits past the schema's are the verbs'. */
export const QuotesBody = Type.Object({ tickers: TickerList(1000) }, { additionalProperties: false });
export const DataBody = Type.Object(
  { tickers: TickerList(500), fields: TickerList(250), period: Period },
  { additionalProperties: false },
);
export const HistoryBody = Type.Object(
  {
    tickers: TickerList(100),
    fields: TickerList(100),
    start: DateParam,
    end: DateParam,
    period: HistoryPeriod,
  },
  { additionalProperties: false },
);

/** Query strings (GET): lists comma-separated. */
export const QuotesQuery = Type.Object(
  { tickers: Type.String({ minLength: 1, maxLength: 8000, description: 'Comma-separated tickers.' }) },
  { additionalProperties: false },
);
export const DataQuery = Type.Object(
  {
    tickers: Type.String({ minLength: 1, maxLength: 4000 }),
    fields: Type.String({ minLength: 1, maxLength: 2000 }),
    period: Period,
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
  },
  { additionalProperties: false },
);
