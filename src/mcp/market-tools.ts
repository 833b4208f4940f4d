// The market tools: each is a market verb with the REST route's arguments and answer, laid out as compact
// tables. Every call of one takes one unit from the key's minute and day, shared with the REST routes.
import { Type } from 'typebox';
import { historyJson } from '../market/bar-rows.js';
import { searchFields } from '../market/fields/search.js';
import { resolveTickers } from '../market/resolve.js';
import {
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
import { DATA, HISTORY, QUOTES, SEARCH, todayOf } from '../market/verbs.js';
import { csvLine, type Layout } from './pages.js';
import { type Tool, tool } from './tool.js';

type Item = Record<string, unknown> & {
  input: string;
  status: string;
  resolved?: Record<string, unknown>;
  error?: { code: string; message: string };
};
type Answer = { items: Item[]; fields?: { input: string }[] };

const failed = (item: Item) => (item.error ? `${item.error.code}: ${item.error.message}` : '');

/** A flat table of the answer's items: one line each. */
function itemTable(columns: string[], cells: (item: Item) => unknown[]): Layout {
  return {
    list: (body) => (body as Answer).items,
    withList: (body, items) => ({ ...body, items }),
    preamble: () => csvLine(['input', 'status', ...columns]),
    head: () => '',
    line: (item) => {
      const it = item as Item;
      return csvLine([it.input, it.status, ...(it.status === 'error' ? [failed(it)] : cells(it))]);
    },
  };
}

const quoteColumns = ['symbol', 'name', 'price', 'currency', 'changePercent', 'previousClose', 'volume'];
const quoteLayout = itemTable([...quoteColumns, 'marketCap', 'marketState', 'asOf'], (item) => {
  const q = (item.quote ?? {}) as Record<string, unknown>;
  return [...quoteColumns, 'marketCap', 'marketState', 'asOf'].map((c) => q[c]);
});

/** Data: a column per field as sent; a field's error shows as !code. */
const dataLayout: Layout = {
  list: (body) => (body as Answer).items,
  withList: (body, items) => ({ ...body, items }),
  preamble: (body) => csvLine(['input', 'status', ...((body as Answer).fields ?? []).map((f) => f.input)]),
  head: () => '',
  line: (element) => {
    const item = element as Item & {
      values?: Record<string, unknown>;
      errors?: Record<string, { code: string }>;
    };
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
const historyLayout: Layout = {
  list: (body) => (body as Answer).items,
  withList: (body, items) => ({ ...body, items }),
  rows: 'rows',
  preamble: (body) => {
    const b = body as { period: string; start: string; end: string };
    return `period ${b.period}, ${b.start} to ${b.end}`;
  },
  head: (element) => {
    const item = element as Item & { rows?: Record<string, unknown>[] };
    const r = item.resolved;
    const title = `# ${item.input}: ${item.status}${r ? ` (${r.ticker}, ${r.currency})` : ''}`;
    const first = item.rows?.[0];
    return first ? `${title}\n${csvLine(Object.keys(first))}` : title;
  },
  line: (element, row) => {
    const item = element as Item & { rows?: Record<string, unknown>[] };
    if (row === null) return failed(item) || 'no rows';
    return csvLine(Object.values(item.rows?.[row] ?? {}));
  },
};

const fieldsLayout: Layout = {
  list: (body) => (body as { fields: object[] }).fields,
  withList: (body, fields) => ({ ...body, fields }),
  preamble: (body) => {
    const notServed = (body as { notServed: { name: string; reason: string }[] }).notServed;
    const lines = notServed.map((n) => `not served: ${n.name} (${n.reason})`);
    return [...lines, csvLine(['id', 'aliases', 'unit', 'appliesTo', 'history', 'group'])].join('\n');
  },
  head: () => '',
  line: (element) => {
    const f = element as { id: string; aliases: { name: string; millions: boolean }[]; unit: string };
    const rest = element as unknown as { appliesTo: string[]; history: boolean; group: string };
    const aliases = f.aliases.map((a) => (a.millions ? `${a.name} [m]` : a.name)).join(' ');
    return csvLine([f.id, aliases, f.unit, rest.appliesTo.join(' '), rest.history, rest.group]);
  },
};

const searchColumns = ['service', 'suffix', 'terminal', 'name', 'exchange', 'type', 'source'];
const searchLayout: Layout = {
  list: (body) => (body as { items: object[] }).items,
  withList: (body, items) => ({ ...body, items }),
  preamble: () => csvLine(searchColumns),
  head: () => '',
  line: (element) => {
    const f = element as { forms: Record<string, string | null> } & Record<string, unknown>;
    return csvLine([f.forms.service, f.forms.suffix, f.forms.terminal, f.name, f.exchange, f.type, f.source]);
  },
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
];
const shortLayout = itemTable(shortColumns, (item) => {
  const s = (item.shortInterest ?? {}) as Record<string, unknown>;
  return shortColumns.map((c) => s[c]);
});

const resolveLayout = itemTable(
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
    const r = item.resolved ?? {};
    const held = (item.held ?? {}) as {
      quote?: boolean;
      bars?: { first: string; last: string; count: number } | null;
    };
    const bars = held.bars ? `${held.bars.count} ${held.bars.first}..${held.bars.last}` : null;
    const rest = item.held as { statementFields?: number; shortInterest?: boolean } | undefined;
    return [
      r.ticker,
      r.symbol,
      r.exchange,
      r.assetType,
      r.currency,
      r.name,
      held.quote,
      bars,
      rest?.statementFields,
      rest?.shortInterest,
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
      'AAPL, BARC.L, "BARC LN Equity", "CL1 Comdty", EURUSD=X. Same answer as GET /v1/quotes.',
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
      'does not apply is null with an entry in errors. Same answer as POST /v1/data.',
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
      'or annually. Long answers come in pages: pass continuation alone to get the next. Same answer as POST /v1/history.',
    input: HistoryBody,
    output: HistoryResponse,
    layout: historyLayout,
    check: (deps, args) => HISTORY.units(args, todayOf(deps)),
    run: (deps, args) => HISTORY.run(deps, args),
    wire: (answer) => JSON.parse(historyJson(answer as { items: object[] })) as object,
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
