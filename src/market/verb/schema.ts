// What the market verbs' schemas share: an item's head and errors, the resolved ticker, staleness, and the
// request members several verbs take (ticker lists, dates, statement asOf).
import { type TProperties, Type } from 'typebox';
import { Nullable } from '../../kernel/schema.js';

export const CodeAndMessage = (code: string) =>
  Type.Object({ code: Type.String({ description: code }), message: Type.String() });

export const Resolved = Type.Object(
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

/** Old values say so: judged from the value's own time against its market's regular sessions. */
export const Stale = Type.Optional(
  Type.Boolean({
    description:
      'True when a value is older than the last regular session of its market that should have made a newer one ' +
      '(holidays are not known: a holiday counts as a session), or, where the sessions are not known, more than ' +
      'four days old (a day for crypto); and when a value came from the last copy held because the upstream ' +
      'could not be reached.',
  }),
);

/** Where an item's values came from: its source, and the values that came from elsewhere. */
export const Source = Type.Optional(
  Type.String({
    description:
      "Where the item's values came from: the upstream that answered (polygon, tiingo, fmp, yahoo), edgar (a US " +
      "company's statements read from its SEC filings), or stored (loaded into the store with quarry ingest). A " +
      'value named in `sources` came from there instead.',
  }),
);

export const StoredFile = Type.Optional(
  Type.String({
    description:
      'For a quote loaded into the store (source stored): the file its price came from (quarry ingest): a price ' +
      "file's last bars, or a recorded quote.",
  }),
);

export const Sources = Type.Optional(
  Type.Record(Type.String(), Type.String(), {
    description:
      'The values that came from elsewhere than `source`, keyed as the values are, with where: another upstream, ' +
      'edgar, openfigi, stored.',
  }),
);

export const StaleReason = Type.Optional(
  Type.String({
    description:
      'Why stale: the value\'s time and the sessions since, e.g. "last price 2026-05-01 20:00 UTC; 147 sessions since".',
  }),
);

/** input, status and resolved, first members of every item. */
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

export const List = (maxItems: number, description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { minItems: 1, maxItems, description });

export const Period = Type.Optional(
  Type.Enum(['annual', 'quarterly'], { description: 'For statement fields; default annual.' }),
);

export const DateParam = Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD.' }));

export const AsOf = Type.Optional(
  Type.String({
    format: 'date',
    description:
      'Statement fields as known at the end of this day (YYYY-MM-DD): as reported by the filings accepted by then ' +
      "(a later restatement not yet published); EXCH_CODE and CIK as SEC's exchange file held by then had them. " +
      'Prices are not affected.',
  }),
);

/** An answer of one item per ticker: its head, `members` when it is answered, its error when not. */
export const PerTicker = <M extends TProperties>(members: M, errors: string) =>
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

/** A request of tickers alone (quotes, short interest, resolve). */
export const TickersBody = Type.Object(
  { tickers: List(1000, 'Up to 100 tickers, any form; repeated ones are answered once.') },
  { additionalProperties: false },
);
