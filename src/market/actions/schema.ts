// The request and answer of /v1/actions and market.actions: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import { Nullable } from '../../kernel/schema.js';
import { ItemError, ItemHead, List } from '../verb/schema.js';
import { ACTION_ADJUSTMENTS, ACTION_TYPES } from './actions.js';

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
    file: Type.Optional(
      Type.String({
        description: 'The file that loaded it, for an action loaded into the store (source stored).',
      }),
    ),
    repaired: Type.Optional(
      Type.Object(
        {
          from: Type.Number({
            description: 'The amount as the source sent it, in the same currency and shares.',
          }),
          reason: Type.String({ description: 'Why the amount served differs: the evidence, in words.' }),
        },
        {
          description:
            'Present where the amount served is not the one the source sent: a dividend sent in the other unit ' +
            "(pence as pounds), one paid on a split's ex-date still in the shares before it, or a second record " +
            'of one payment (served as 0). docs/adr/038 gives the rules.',
        },
      ),
    ),
    inDividend: Type.Optional(
      Type.Boolean({
        description:
          "A capital gain paid inside the same day's dividend (a fund's dividend includes it): the total return counts it once.",
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
    source: Type.Optional(
      Type.String({
        description:
          'Where the actions came from: the upstream that answered (tiingo, fmp, yahoo), or stored.',
      }),
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
