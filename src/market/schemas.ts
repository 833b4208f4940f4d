// The market verbs' requests and answers as schemas: the HTTP routes validate and serialise with them, the
// OpenAPI document and the MCP tools' input and output schemas are written from them.
import { type TProperties, Type } from 'typebox';
import { Nullable } from '../kernel/schema.js';
import { ACTION_ADJUSTMENTS, ACTION_TYPES } from './actions.js';
import { ADJUSTMENTS } from './compute/adjust.js';
import { PERIODS } from './history-request.js';

const CodeAndMessage = (code: string) =>
  Type.Object({ code: Type.String({ description: code }), message: Type.String() });

const Resolved = Type.Object(
  {
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
  },
  { title: 'Resolved' },
);

/** input, status and resolved, first members of every item. */

/** Old values say so: judged from the value's own time against its market's regular sessions. */
const Stale = Type.Optional(
  Type.Boolean({
    description:
      'True when a value is older than the last regular session of its market that should have made a newer one ' +
      '(holidays are not known: a holiday counts as a session), or, where the sessions are not known, more than ' +
      'four days old (a day for crypto); and when a value came from the last copy held because the upstream ' +
      'could not be reached.',
  }),
);
const StaleReason = Type.Optional(
  Type.String({
    description:
      'Why stale: the value\'s time and the sessions since, e.g. "last price 2026-05-01 20:00 UTC; 147 sessions since".',
  }),
);
export const ItemHead = {
  input: Type.String(),
  status: Type.String({ description: 'ok, partial (some fields have errors) or error' }),
  resolved: Type.Optional(Resolved),
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

const QuoteItem = Type.Object(
  {
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
        marketState: Type.String({
          description:
            'REGULAR, CLOSED, PRE, POST… as of asOf; CLOSED for a stale quote, whose session has ended since.',
        }),
        asOf: Type.String(),
        fieldsAsOf: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description:
              'Members true at another time than asOf, with theirs: the market cap of an older recording beside a ' +
              'newer daily close.',
          }),
        ),
        stale: Stale,
        staleReason: StaleReason,
        currencies: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description: 'Values not in the price currency, e.g. marketCap in GBP.',
          }),
        ),
      }),
    ),
    error: ItemError('not_found, or timeout when not ready within the deadline'),
  },
  { title: 'QuoteItem' },
);

export const QuotesResponse = Type.Object({ access: Type.String(), items: Type.Array(QuoteItem) });

const DataItem = Type.Object(
  {
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
      Type.Record(Type.String(), Type.String(), {
        description: 'Fiscal period end of each statement value.',
      }),
    ),
    derived: Type.Optional(
      Type.Array(Type.String(), { description: 'Fields whose value is the full year less Q1 to Q3.' }),
    ),
    asOf: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          "How old each value is, keyed by the field as sent: the quote time (ISO 8601), the last close of its window for computed fields, the filing date for statement fields, the date of SEC's exchange file for EXCH_CODE and CIK.",
      }),
    ),
    windows: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({ from: Type.String(), to: Type.String() }, { additionalProperties: false }),
        {
          description:
            'Computed fields: the dates of the first and last closes a value was measured over (beta: the weeks both the listing and the index hold).',
        },
      ),
    ),
    stale: Stale,
    staleReason: StaleReason,
    error: ItemError('not_found, or timeout when not ready within 12 seconds'),
  },
  { title: 'DataItem' },
);

export const DataResponse = Type.Object({
  access: Type.String(),
  period: Type.String(),
  fields: FieldsAnswered,
  items: Type.Array(DataItem),
});

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
          field: Type.String({ description: 'open, high, low or close' }),
          from: Type.Number({ description: 'As the source gave it, in the main currency.' }),
          to: Type.Number({ description: 'As served: scaled by 100 or 1/100.' }),
        }),
        {
          description:
            'Prices of a minor-unit listing (London, Johannesburg, Tel Aviv) that arrived 100 times too small or too large and were scaled back.',
        },
      ),
    ),
    stale: Stale,
    staleReason: StaleReason,
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

const FieldEntry = Type.Object(
  {
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
    group: Type.String({
      description:
        'quote, profile, valuation, estimate, computed, statement, identifier or bulk (a list of rows).',
    }),
  },
  { title: 'FieldEntry' },
);

export const FieldsResponse = Type.Object({
  fields: Type.Array(FieldEntry),
  notServed: Type.Array(Type.Object({ name: Type.String(), reason: Type.String() }), {
    description: 'Terminal fields this service does not serve, with the reason each answers with.',
  }),
});

const List = (maxItems: number, description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems, description });
const Period = Type.Optional(
  Type.Enum(['annual', 'quarterly'], { description: 'For statement fields; default annual.' }),
);
const HistoryPeriod = Type.Optional(Type.Enum([...PERIODS], { description: 'Default daily.' }));
const DateParam = Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD.' }));
const AsOf = Type.Optional(
  Type.String({
    format: 'date',
    description:
      'Statement fields as known at the end of this day (YYYY-MM-DD): as reported by the filings accepted by then ' +
      "(a later restatement not yet published); EXCH_CODE and CIK as SEC's exchange file held by then had them. " +
      'Prices are not affected.',
  }),
);

/** Request bodies (POST, and the MCP tools' arguments): lists as arrays. Limits past the schema's are the verbs'. */
export const QuotesBody = Type.Object(
  { tickers: List(1000, 'Up to 100 tickers, any form; repeated ones are answered once.') },
  { additionalProperties: false },
);
export const DataBody = Type.Object(
  {
    tickers: List(500, 'Up to 50 tickers, any form.'),
    fields: List(250, 'Up to 25 field ids or terminal mnemonics, any letter case.'),
    period: Period,
    asOf: AsOf,
  },
  { additionalProperties: false },
);

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
    asOf: AsOf,
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

const Held = Type.Object({
  quote: Type.Boolean({ description: 'A quote is held.' }),
  bars: Nullable(
    Type.Object(
      { count: Type.Integer(), first: Type.String(), last: Type.String() },
      { description: 'Daily bars held.' },
    ),
  ),
  statementFields: Type.Integer({ description: 'Statement fields held (SEC facts or Yahoo fundamentals).' }),
  shortInterest: Type.Boolean(),
});

/** An answer of one item per ticker: its head, `members` when it is answered, its error when not. */
const PerTicker = <M extends TProperties>(members: M, errors: string) =>
  Type.Object({
    access: Type.String(),
    items: Type.Array(
      Type.Object({
        input: Type.String(),
        status: Type.String({ description: 'ok or error' }),
        resolved: Type.Optional(Resolved),
        ...members,
        error: ItemError(errors),
      }),
    ),
  });

export const ResolveResponse = PerTicker(
  { held: Type.Optional(Held) },
  'not_found: the ticker cannot be read',
);

export const ShortInterestResponse = PerTicker(
  {
    shortInterest: Type.Optional(
      Type.Object({
        sharesShort: Type.Number(),
        sharesShortPriorMonth: Nullable(Type.Number()),
        change: Nullable(Type.Number({ description: 'sharesShort less sharesShortPriorMonth.' })),
        priorSettlementDate: Nullable(Type.String()),
        shortRatio: Nullable(Type.Number({ description: 'Days to cover.' })),
        percentOfFloat: Nullable(Type.Number({ description: 'Percent: 1.5 = 1.5 %.' })),
        percentOfSharesOutstanding: Nullable(Type.Number({ description: 'Percent: 1.5 = 1.5 %.' })),
        settlementDate: Type.String({ description: 'Settlement date of the reported position.' }),
        asOf: Type.String({ description: 'When the figures were read from the source.' }),
        source: Type.String(),
        stale: Type.Boolean({ description: 'The settlement date is more than 35 days old.' }),
      }),
    ),
  },
  'not_found: no short interest is held, or the ticker cannot be read',
);

export const SearchQuery = Type.Object(
  { q: Type.String({ minLength: 1, maxLength: 100, description: 'A symbol or part of a name.' }) },
  { additionalProperties: false },
);
export const SearchBody = SearchQuery;

const Forms = Type.Object(
  {
    service: Type.String(),
    suffix: Type.String(),
    terminal: Nullable(
      Type.String({ description: 'null where the terminal form has no code for the listing.' }),
    ),
  },
  { description: 'The instrument in the three ticker forms; any of them can be sent to the other calls.' },
);

export const SearchResponse = Type.Object({
  access: Type.String(),
  query: Type.String(),
  items: Type.Array(
    Type.Object({
      symbol: Type.String({ description: 'The exchange-suffixed form.' }),
      name: Type.String(),
      exchange: Type.String(),
      type: Type.String({ description: 'As the source names it: EQUITY, ETF, INDEX, FUTURE, CURRENCY…' }),
      source: Type.String({
        description:
          "stored (data is held here), edgar (named by EDGAR's registrant list, a US listing) or the upstream that found it.",
      }),
      forms: Forms,
    }),
  ),
});

const Action = Type.Object(
  {
    date: Type.String({ description: 'The ex-date, YYYY-MM-DD.' }),
    type: Type.String({ description: 'dividend, split or capitalGain.' }),
    amount: Type.Optional(
      Type.Number({
        description:
          "Cash per share in the item's currency (pence under a terminal-form London ticker, pounds under the others), " +
          'in the shares of today (adjust=split) or of the ex-date (adjust=none). Dividends and capital gains.',
      }),
    ),
    numerator: Type.Optional(
      Type.Number({ description: 'Shares after the split for each `denominator` before.' }),
    ),
    denominator: Type.Optional(Type.Number()),
    knownAt: Nullable(
      Type.String({
        description: 'When the action became known here: the load that brought it, or the fetch.',
      }),
    ),
    repairedFrom: Type.Optional(
      Type.Number({
        description:
          'The amount as the source sent it, where it arrived in the other unit (pounds among pence: a payment above ' +
          'the price, or under a hundredth of a percent of it) and was scaled by 100 to `amount`.',
      }),
    ),
  },
  { title: 'CorporateAction' },
);

const ActionsItem = Type.Object(
  {
    ...ItemHead,
    error: ItemError('not_found, invalid_ticker or timeout'),
    currency: Type.Optional(
      Type.String({ description: 'The currency of the amounts, as prices are answered.' }),
    ),
    adjust: Type.Optional(Type.String()),
    actions: Type.Optional(Type.Array(Action, { description: 'Oldest first.' })),
    known: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.Object({ start: Type.String(), end: Type.String() })), {
        description:
          "Per type asked, the spans of days over which the listing's actions of that type are known (a source " +
          'answered them for those days). Outside them no action is known, which is not to say none happened.',
      }),
    ),
    asOf: Type.Optional(
      Nullable(Type.String({ description: "When the newest of the listing's actions held became known." })),
    ),
  },
  { title: 'ActionsItem' },
);

export const ActionsResponse = Type.Object({
  access: Type.String(),
  readAsOf: Nullable(
    Type.String({
      description: 'With asOf: the instant the actions were read as known at (the end of that day, UTC).',
    }),
  ),
  adjust: Type.String({ description: "split (today's shares) or none (as paid)." }),
  start: Nullable(Type.String()),
  end: Type.String(),
  items: Type.Array(ActionsItem),
});

const ActionsAdjust = Type.Optional(
  Type.Enum([...ACTION_ADJUSTMENTS], {
    description:
      "split (default): amounts in today's shares, as history's prices; none: as paid on the ex-date.",
  }),
);
const ACTIONS_START = 'YYYY-MM-DD; default: every action held.';
const ACTIONS_END = 'YYYY-MM-DD; default today.';
const ActionsAsOf = Type.Optional(
  Type.String({
    format: 'date',
    description:
      'The actions as known at the end of this day (YYYY-MM-DD, UTC): each as it stood then (a later correction not ' +
      'yet known), and only the days known by then.',
  }),
);

export const ActionsBody = Type.Object(
  {
    tickers: List(1000, 'Up to 100 tickers, any form.'),
    start: Type.Optional(Type.String({ format: 'date', description: ACTIONS_START })),
    end: Type.Optional(Type.String({ format: 'date', description: ACTIONS_END })),
    types: Type.Optional(
      Type.Array(Type.Enum([...ACTION_TYPES]), {
        minItems: 1,
        maxItems: 3,
        description: 'Default all three.',
      }),
    ),
    adjust: ActionsAdjust,
    asOf: ActionsAsOf,
  },
  { additionalProperties: false },
);

export const ActionsQuery = Type.Object(
  {
    tickers: Type.String({ minLength: 1, maxLength: 8000, description: 'Comma-separated tickers.' }),
    start: Type.Optional(Type.String({ format: 'date', description: ACTIONS_START })),
    end: Type.Optional(Type.String({ format: 'date', description: ACTIONS_END })),
    types: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Comma-separated: dividend, split, capitalGain. Default all.',
      }),
    ),
    adjust: ActionsAdjust,
    asOf: ActionsAsOf,
  },
  { additionalProperties: false },
);
