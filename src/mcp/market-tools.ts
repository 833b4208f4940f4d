// The market tools: each is a market verb with the REST route's arguments and answer, laid out as compact
// tables. Every call of one takes one unit from the key's minute and day, shared with the REST routes.
import { type Static, Type } from 'typebox';
import { historyJson } from '../market/bar-rows.js';
import { searchFields } from '../market/fields/search.js';
import { resolveTickers } from '../market/resolve.js';
import {
  ActionsBody,
  ActionsResponse,
  DataBody,
  DataResponse,
  FieldsResponse,
  HistoryBody,
  HistoryResponse,
  QuotesBody,
  QuotesResponse,
  ResolveResponse,
  SearchBody,
  SearchResponse,
  ShortInterestResponse,
} from '../market/schemas.js';
import { shortInterest } from '../market/short-interest.js';
import { ACTIONS, DATA, HISTORY, QUOTES, SEARCH, todayOf } from '../market/verbs.js';
import { csvLine, type Layout } from './pages.js';
import { type Tool, tool } from './tool.js';

type Quotes = Static<typeof QuotesResponse>;
type Data = Static<typeof DataResponse>;
type History = Static<typeof HistoryResponse>;
type Fields = Static<typeof FieldsResponse>;
type Actions = Static<typeof ActionsResponse>;
type Search = Static<typeof SearchResponse>;
type Short = Static<typeof ShortInterestResponse>;
type Resolve = Static<typeof ResolveResponse>;

/** What every per-ticker item has. */
interface Item {
  input: string;
  status: string;
  error?: { code: string; message: string };
}

const failed = (item: Item) => (item.error ? `${item.error.code}: ${item.error.message}` : '');

/** A line per stale item before the table ("stale: AAPL, last price 2026-05-01 20:00 UTC; 147 sessions since"). */
function staleNote(items: readonly { input: string; staleReason?: string }[]): string {
  return items
    .flatMap((item) => (item.staleReason ? [`stale: ${item.input}, ${item.staleReason}\n`] : []))
    .join('');
}

/** A flat table of the answer's items: one line each. */
function itemTable<B extends { items: E[] }, E extends Item>(
  columns: string[],
  cells: (item: E) => unknown[],
  note: (body: B) => string = () => '',
): Layout<B, E> {
  return {
    list: (body) => body.items,
    withList: (body, items) => ({ ...body, items }),
    preamble: (body) => note(body) + csvLine(['input', 'status', ...columns]),
    head: () => '',
    line: (item) =>
      csvLine([item.input, item.status, ...(item.status === 'error' ? [failed(item)] : cells(item))]),
  };
}

const quoteColumns = [
  'symbol',
  'name',
  'price',
  'currency',
  'changePercent',
  'previousClose',
  'volume',
  'marketCap',
  'marketState',
  'asOf',
] as const;
const quoteLayout = itemTable<Quotes, Quotes['items'][number]>(
  [...quoteColumns],
  (item) => quoteColumns.map((c) => item.quote?.[c]),
  (body) =>
    staleNote(body.items.map((item) => ({ input: item.input, staleReason: item.quote?.staleReason }))),
);

/** Data: a column per field as sent; a field's error shows as !code. */
const dataLayout: Layout<Data, Data['items'][number]> = {
  list: (body) => body.items,
  withList: (body, items) => ({ ...body, items }),
  preamble: (body) =>
    staleNote(body.items) + csvLine(['input', 'status', ...body.fields.map((f) => f.input)]),
  head: () => '',
  line: (item) => {
    if (item.status === 'error') return csvLine([item.input, item.status, failed(item)]);
    const names = Object.keys(item.values ?? {});
    return csvLine([
      item.input,
      item.status,
      ...names.map((n) => item.values?.[n] ?? (item.errors?.[n] ? `!${item.errors[n].code}` : null)),
    ]);
  },
};

/** History: a block per ticker, its rows under a date column and the fields as sent. */
const historyLayout: Layout<History, History['items'][number]> = {
  list: (body) => body.items,
  withList: (body, items) => ({ ...body, items }),
  rows: 'rows',
  preamble: (body) =>
    `${staleNote(body.items)}period ${body.period}, ${body.start} to ${body.end}, adjust ${body.adjust}`,
  head: (item) => {
    const r = item.resolved;
    const title = `# ${item.input}: ${item.status}${r ? ` (${r.ticker}, ${r.currency})` : ''}`;
    const first = item.rows?.[0];
    return first ? `${title}\n${csvLine(Object.keys(first))}` : title;
  },
  line: (item, row) => {
    if (row === null) return failed(item) || 'no rows';
    return csvLine(Object.values(item.rows?.[row] ?? {}));
  },
};

/** Actions: a block per ticker, an action a line. */
const actionColumns = ['date', 'type', 'amount', 'numerator', 'denominator', 'knownAt'] as const;
const actionsLayout: Layout<Actions, Actions['items'][number]> = {
  list: (body) => body.items,
  withList: (body, items) => ({ ...body, items }),
  rows: 'actions',
  preamble: (body) => `adjust ${body.adjust}, ${body.start ?? 'all held'} to ${body.end}`,
  head: (item) => {
    const title = `# ${item.input}: ${item.status}${item.currency ? ` (amounts in ${item.currency})` : ''}`;
    return item.actions?.length ? `${title}\n${csvLine([...actionColumns])}` : title;
  },
  line: (item, row) => {
    if (row === null) return failed(item) || 'no actions in the window';
    const action = item.actions?.[row];
    return csvLine(actionColumns.map((c) => action?.[c]));
  },
};

const fieldsLayout: Layout<Fields, Fields['fields'][number]> = {
  list: (body) => body.fields,
  withList: (body, fields) => ({ ...body, fields }),
  preamble: (body) => {
    const lines = body.notServed.map((n) => `not served: ${n.name} (${n.reason})`);
    return [...lines, csvLine(['id', 'aliases', 'unit', 'appliesTo', 'history', 'group'])].join('\n');
  },
  head: () => '',
  line: (f) => {
    const aliases = f.aliases.map((a) => (a.millions ? `${a.name} [m]` : a.name)).join(' ');
    return csvLine([f.id, aliases, f.unit, f.appliesTo.join(' '), f.history, f.group]);
  },
};

const searchColumns = ['service', 'suffix', 'terminal', 'name', 'exchange', 'type', 'source'];
const searchLayout: Layout<Search, Search['items'][number]> = {
  list: (body) => body.items,
  withList: (body, items) => ({ ...body, items }),
  preamble: () => csvLine(searchColumns),
  head: () => '',
  line: (f) =>
    csvLine([f.forms.service, f.forms.suffix, f.forms.terminal, f.name, f.exchange, f.type, f.source]),
};

const shortColumns = [
  'settlementDate',
  'sharesShort',
  'sharesShortPriorMonth',
  'change',
  'shortRatio',
  'percentOfFloat',
  'percentOfSharesOutstanding',
  'stale',
  'asOf',
] as const;
const shortLayout = itemTable<Short, Short['items'][number]>([...shortColumns], (item) =>
  shortColumns.map((c) => item.shortInterest?.[c]),
);

const resolveLayout = itemTable<Resolve, Resolve['items'][number]>(
  [
    'ticker',
    'symbol',
    'exchange',
    'assetType',
    'currency',
    'name',
    'quote',
    'bars',
    'statementFields',
    'shortInterest',
  ],
  (item) => {
    const r = item.resolved;
    const held = item.held;
    const bars = held?.bars ? `${held.bars.count} ${held.bars.first}..${held.bars.last}` : null;
    return [
      r?.ticker,
      r?.symbol,
      r?.exchange,
      r?.assetType,
      r?.currency,
      r?.name,
      held?.quote,
      bars,
      held?.statementFields,
      held?.shortInterest,
    ];
  },
);

const Tickers = Type.Object({ tickers: QuotesBody.properties.tickers }, { additionalProperties: false });

const FieldsQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Words to find in an id, alias, unit or group, e.g. "margin".',
      }),
    ),
    assetType: Type.Optional(Type.Enum(['equity', 'fund', 'index', 'future', 'currency', 'crypto'])),
    history: Type.Optional(Type.Boolean({ description: 'true: only fields /v1/history serves.' })),
  },
  { additionalProperties: false },
);

const market = { api: 'market' as const };

export const MARKET_TOOLS: Tool[] = [
  tool({
    ...market,
    name: 'market.quotes',
    title: 'Quotes',
    description:
      'Full quotes (price, change, volume, market cap, market state) for up to 100 tickers in any form: ' +
      'AAPL, BARC.L, "BARC LN Equity", "CL1 Comdty", EURUSD=X. The newest known price: a later daily close beats ' +
      'an older quote. An old quote says so (stale, staleReason), and the text names it above the table. ' +
      'Same answer as GET /v1/quotes.',
    input: QuotesBody,
    output: QuotesResponse,
    layout: quoteLayout,
    check: (deps, args) => QUOTES.units(args, todayOf(deps)),
    run: (deps, args) => QUOTES.run(deps, args),
  }),
  tool({
    ...market,
    name: 'market.data',
    title: 'Current values by field',
    description:
      'Current values for up to 50 tickers x 25 fields, fields by id or terminal mnemonic (PX_LAST, CUR_MKT_CAP, ' +
      'VOLATILITY_30D, EQY_BETA, SALES_REV_TURN…); period annual or quarterly for statement fields. A field that ' +
      'does not apply is null with an entry in errors. asOf says when each value was true; an item whose oldest ' +
      "value predates its market's last session is stale, named above the table. Same answer as POST /v1/data.",
    input: DataBody,
    output: DataResponse,
    layout: dataLayout,
    check: (deps, args) => DATA.units(args, todayOf(deps)),
    run: (deps, args) => DATA.run(deps, args),
    // Every member of a data answer is in the route's schema (resolved is open): it is its own wire form.
    wire: (answer) => answer,
  }),
  tool({
    ...market,
    name: 'market.history',
    title: 'History',
    description:
      'Rows oldest first for up to 10 tickers x 5 fields between start and end (YYYY-MM-DD; default the last ' +
      'year, five for statement periods): prices and volume daily, weekly or monthly; statement fields quarterly ' +
      'or annually. adjust: split (default), none (as traded) or total (dividends reinvested); ' +
      'TOT_RETURN_INDEX_GROSS_DVDS is the total-return index. Long answers come in pages: pass continuation alone ' +
      'to get the next. An item whose last row ' +
      "predates its market's last session before end is stale, named above the rows. Same answer as POST /v1/history.",
    input: HistoryBody,
    output: HistoryResponse,
    layout: historyLayout,
    check: (deps, args) => HISTORY.units(args, todayOf(deps)),
    run: (deps, args) => HISTORY.run(deps, args),
    wire: (answer) => {
      const written: object = JSON.parse(historyJson(answer));
      return written;
    },
  }),
  tool({
    ...market,
    name: 'market.actions',
    title: 'Dividends and splits',
    description:
      'Corporate actions of up to 100 tickers between start and end (default: all held): dividends, capital gains ' +
      "and splits, oldest first, by ex-date; cash per share in the ticker's price currency, in today's shares " +
      '(adjust=split, as history) or as paid (adjust=none); knownAt says when each became known. Same answer as ' +
      'POST /v1/actions.',
    input: ActionsBody,
    output: ActionsResponse,
    layout: actionsLayout,
    check: (deps, args) => ACTIONS.units(args, todayOf(deps)),
    run: (deps, args) => ACTIONS.run(deps, args),
  }),
  tool({
    ...market,
    name: 'market.fields',
    title: 'Field dictionary',
    description:
      'Search the field dictionary: ids, terminal aliases ([m]: millions), units, asset types, whether history ' +
      'serves the field, and the terminal fields not served with the reason. Same entries as GET /v1/fields.',
    input: FieldsQuery,
    output: FieldsResponse,
    layout: fieldsLayout,
    run: async (_deps, args) => searchFields(args),
  }),
  tool({
    ...market,
    name: 'market.short_interest',
    title: 'Short interest',
    description:
      'Short interest (terminal SHORT_INT) per ticker: shares short and the prior settlement, the change, days to ' +
      'cover, percent of float and of shares outstanding, the settlement date, and stale when that date is more ' +
      'than 35 days old.',
    input: Tickers,
    output: ShortInterestResponse,
    layout: shortLayout,
    check: (deps, args) => QUOTES.units(args, todayOf(deps)),
    run: (deps, args) => shortInterest(deps, args),
  }),
  tool({
    ...market,
    name: 'market.resolve',
    title: 'Resolve tickers',
    description:
      'What each ticker, in the service, exchange-suffixed or terminal form, resolves to (service ticker, provider ' +
      'symbol, exchange, asset type, price currency) and what data is held for it (quote, daily bars, statements, ' +
      'short interest).',
    input: Tickers,
    output: ResolveResponse,
    layout: resolveLayout,
    check: (deps, args) => QUOTES.units(args, todayOf(deps)),
    run: (deps, args) => resolveTickers(deps, args),
  }),
  tool({
    ...market,
    name: 'market.search',
    title: 'Find instruments',
    description:
      'Instruments whose symbol or name contains q (stored ones first, then the upstream search), each in the ' +
      'service, exchange-suffixed and terminal forms, any of which the other tools take. One unit. Same answer as GET /v1/search.',
    input: SearchBody,
    output: SearchResponse,
    layout: searchLayout,
    check: (deps, args) => SEARCH.units(args, todayOf(deps)),
    run: (deps, args) => SEARCH.run(deps, args),
  }),
];
