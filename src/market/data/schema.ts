// The request and answer of /v1/data and market.data: the route validates and serialises with them, the OpenAPI
// document and the MCP tool's schemas are written from them.
import { Type } from 'typebox';
import {
  AsOf,
  FieldErrors,
  FieldsAnswered,
  ItemError,
  ItemHead,
  List,
  Period,
  Source,
  Sources,
  Stale,
  StaleReason,
  StoredFile,
} from '../verb/schema.js';

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
    repaired: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          "Computed fields measured over closes served otherwise than the source sent them (a price in the other unit, a split not applied): which, and why. /v1/history's `repaired` gives each value; docs/adr/038 the rules.",
      }),
    ),
    source: Source,
    file: StoredFile,
    sources: Sources,
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

export const DataBody = Type.Object(
  {
    tickers: List(500, 'Up to 50 tickers, any form.'),
    fields: List(250, 'Up to 25 field ids or terminal mnemonics, any letter case.'),
    period: Period,
    asOf: AsOf,
  },
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
