// Schema helpers every layer's wire shapes share.
import { type Static, type TSchema, Type } from 'typebox';

/**
 * A value or null. Primitive types become `type: [t, 'null']`: the response serialiser picks an anyOf branch
 * by validation with coercion, which would write a null number as 0.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  }
  return Type.Union([schema, Type.Null()]);
}
export const Timestamp = Type.String({ description: 'ISO 8601 timestamp with milliseconds, UTC (Z).' });
export const DateString = Type.String({ description: 'Date YYYY-MM-DD.' });
