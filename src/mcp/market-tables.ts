// How each market tool's answer reads as text: compact tables, a line per item or a block per ticker. Keyed by
// the verb's name in src/market/registry.ts; the answer's shape is the verb's answer schema.
import type { Static } from 'typebox';
import type { ActionsResponse } from '../market/actions/schema.js';
import type { DataResponse } from '../market/data/schema.js';
import type { FieldsResponse } from '../market/fields/schema.js';
import type { HistoryResponse } from '../market/history/schema.js';
import type { QuotesResponse } from '../market/quotes/schema.js';
import type { ResolveResponse } from '../market/resolve/schema.js';
import type { SearchResponse } from '../market/search/schema.js';
import type { ShortInterestResponse } from '../market/short-interest/schema.js';
import { csvLine, type Layout } from './pages.js';

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
    // Values served otherwise than sent, a line each before the rows that hold them.
    const repaired = (item.repaired ?? []).map(
      (p) => `\nrepaired: ${p.date} ${p.field} ${p.from} -> ${p.to}: ${p.reason}`,
    );
    for (const d of item.disputed ?? [])
      repaired.push(`\ndisputed: ${d.date} ${d.field}: ${d.source} answers ${d.value}`);
    // Where the rows came from: the upstream, or the files loaded and the days each brought.
    const files = (item.files ?? []).map((f) => ` ${f.file} ${f.start} to ${f.end}`).join(';');
    if (item.source) repaired.unshift(`\nsource: ${item.source}${files ? `:${files}` : ''}`);
    const first = item.rows?.[0];
    return `${title}${repaired.join('')}${first ? `\n${csvLine(Object.keys(first))}` : ''}`;
  },
  line: (item, row) => {
    if (row === null) return failed(item) || 'no rows';
    return csvLine(Object.values(item.rows?.[row] ?? {}));
  },
};

/** Actions: a block per ticker, an action a line. */
const actionColumns = ['date', 'type', 'amount', 'numerator', 'denominator', 'knownAt', 'file'] as const;
/** After them: what a repaired amount was sent as and why, and a capital gain counted inside its dividend. */
const actionNotes = ['repairedFrom', 'repairedBecause', 'inDividend'] as const;
const actionsLayout: Layout<Actions, Actions['items'][number]> = {
  list: (body) => body.items,
  withList: (body, items) => ({ ...body, items }),
  rows: 'actions',
  preamble: (body) => `adjust ${body.adjust}, ${body.start ?? 'all held'} to ${body.end}`,
  head: (item) => {
    const title = `# ${item.input}: ${item.status}${item.currency ? ` (amounts in ${item.currency})` : ''}`;
    return item.actions?.length ? `${title}\n${csvLine([...actionColumns, ...actionNotes])}` : title;
  },
  line: (item, row) => {
    if (row === null) return failed(item) || 'no actions in the window';
    const action = item.actions?.[row];
    return csvLine([
      ...actionColumns.map((c) => action?.[c]),
      action?.repaired?.from,
      action?.repaired?.reason,
      action?.inDividend,
    ]);
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

/** Each verb's table, by the verb's name. */
export const MARKET_TABLES: Record<string, Layout> = {
  quotes: quoteLayout,
  data: dataLayout,
  history: historyLayout,
  actions: actionsLayout,
  fields: fieldsLayout,
  'short-interest': shortLayout,
  resolve: resolveLayout,
  search: searchLayout,
};
