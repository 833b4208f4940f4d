// Response parts shared by the market routes: the head of every item, its errors, and the fields answered.
import { Type } from 'typebox';
import { Nullable } from '../../datasets/envelope.js';

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
