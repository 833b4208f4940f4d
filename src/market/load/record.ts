// The records every market loader gives the import, by provider symbol, prices in main units: a quote
// (latest values by field id), facts (fields recorded without a quote), a statement fact, a daily bar, a
// corporate action, the days a listing's actions are known, or a listing's name.
import { type Static, Type } from 'typebox';

const Num = Type.Union([Type.Number(), Type.Null()]);

export const MarketRecord = Type.Union([
  // Bars first: a load is mostly bars, and a record is tried against each kind in turn.
  Type.Object(
    {
      type: Type.Literal('bar'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      date: Type.String({ format: 'date' }),
      open: Num,
      high: Num,
      low: Num,
      close: Type.Number(),
      volume: Num,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('quote'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      name: Type.String(),
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      exchange: Type.String(),
      assetType: Type.Enum(['equity', 'fund', 'index', 'future', 'currency', 'crypto']),
      asOf: Type.String({ format: 'date-time' }),
      fields: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('statement'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      field: Type.String({ minLength: 1, maxLength: 60 }),
      kind: Type.Enum(['duration', 'instant']),
      start: Type.String(),
      end: Type.String({ format: 'date' }),
      value: Type.Number(),
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      fp: Type.String(),
      form: Type.String(),
      filed: Type.String(),
      concept: Type.Optional(Type.String({ maxLength: 200 })),
      /**
       * Where a later filing restated the period: each value it was reported at, oldest first, with the first
       * filing that reported it (the last is `value`).
       */
      reports: Type.Optional(
        Type.Array(
          Type.Object({ value: Type.Number(), filed: Type.String() }, { additionalProperties: false }),
          { minItems: 2 },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('facts'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      asOf: Type.String({ format: 'date-time' }),
      fields: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('action'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      /** The ex-date. */
      date: Type.String({ format: 'date' }),
      action: Type.Enum(['dividend', 'split', 'capitalGain']),
      /** Per share, main units, in the shares of the bars (dividends and capital gains). */
      amount: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      numerator: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      denominator: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('actionsKnown'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      /** The days the source answered the listing's actions of these types for. */
      start: Type.String({ format: 'date' }),
      end: Type.String({ format: 'date' }),
      actions: Type.Array(Type.Enum(['dividend', 'split', 'capitalGain']), {
        minItems: 1,
        uniqueItems: true,
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('listing'),
      symbol: Type.String({ minLength: 1, maxLength: 40 }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
    },
    { additionalProperties: false },
  ),
]);

export type MarketRecordValue = Static<typeof MarketRecord>;
