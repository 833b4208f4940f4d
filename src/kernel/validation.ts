// One validator for every route and for the cost estimate, so a described call is judged exactly as the
// route itself would judge it; and the messages that name the offending parameter.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AppError } from './errors.js';

export const ajv = new Ajv({
  // Query strings are text; integers and booleans are read from it. Nothing is silently removed.
  coerceTypes: true,
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  strict: false,
});
addFormats.default(ajv);

/** For typed JSON (interchange records, fixtures): no coercion, so null stays null and "1" stays text. */
export const strictAjv = new Ajv({
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  strict: false,
});
addFormats.default(strictAjv);

const compiled = new WeakMap<object, ValidateFunction>();
const compiledStrict = new WeakMap<object, ValidateFunction>();

/** A validator for request parameters (text coerced to the declared types). */
export function compile(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** A validator for typed JSON: values are checked as they are. */
export function compileStrict(schema: object): ValidateFunction {
  let validate = compiledStrict.get(schema);
  if (!validate) {
    validate = strictAjv.compile(schema);
    compiledStrict.set(schema, validate);
  }
  return validate;
}

/** What a validation error says, as the validator and Fastify both report it. */
type ValidationError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'> & {
  parentSchema?: Record<string, unknown>;
};

/** A message a person can act on, naming the parameter; `where` is e.g. "parameter" or "field". */
export function describeError(error: ValidationError, where = 'parameter'): string {
  const name = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const { additionalProperty, missingProperty, allowedValues } = error.params;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown ${where} "${additionalProperty}"`;
    case 'required':
      return `missing ${where} "${missingProperty}"`;
    case 'enum':
      return `${where} "${name}" must be one of ${Array.isArray(allowedValues) ? allowedValues.join(', ') : ''}`;
    case 'pattern':
      return `${where} "${name}" is not in the expected form${error.parentSchema?.description ? `: ${error.parentSchema.description}` : ''}`;
    default:
      return name
        ? `${where} "${name}" ${error.message ?? 'is invalid'}`
        : `${error.message ?? 'invalid request'}`;
  }
}

/**
 * Our own checks on a raw query before schema validation: a parameter sent twice or sent empty is refused
 * here, because a schema would only see the coerced value.
 */
export function checkRawQuery(query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value))
      throw new AppError('invalid_params', `parameter "${name}" is repeated; send it once`);
    if (value === '') throw new AppError('invalid_params', `parameter "${name}" is empty`);
  }
}

/** C0 and C1 control characters and DEL: no name, symbol, date or query of ours holds one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** How deep a JSON body or a tool's arguments may nest: ours nest three levels; far deeper is no request of ours. */
export const MAX_DEPTH = 32;

/**
 * Refuses any text in `value` (a query, path parameters, a JSON body or a tool's arguments, walked to every
 * string) that holds a control character, naming where: a NUL byte would otherwise reach PostgreSQL, which
 * refuses it, while SQLite would cut the text short. A value nested deeper than MAX_DEPTH is refused too, so the
 * walk's recursion is bounded whatever a caller sends.
 */
export function checkText(value: unknown, where: string): void {
  walkText(value, where, where, 0);
}

function walkText(value: unknown, where: string, top: string, depth: number): void {
  if (typeof value === 'string') {
    const found = CONTROL.exec(value);
    if (found) {
      const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      throw new AppError('invalid_params', `${where} holds a control character (U+${code}); send plain text`);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH)
    throw new AppError('invalid_params', `${top} is nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const item of value) walkText(item, where, top, depth + 1);
  } else {
    for (const [name, member] of Object.entries(value))
      walkText(member, `${where} "${name}"`, top, depth + 1);
  }
}

/** Validates (and coerces, in place) `value` against `schema`, throwing invalid_params on failure. */
export function validateOrThrow(schema: object, value: unknown, where = 'parameter'): void {
  const validate = compile(schema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    throw new AppError('invalid_params', first ? describeError(first, where) : 'invalid parameters');
  }
}

/** A whole number as a person writes it: no sign but minus, no leading zeros, no exponent, point or spaces. */
const WHOLE_NUMBER = /^-?(0|[1-9][0-9]*)$/;

type Properties = { properties?: Record<string, { type?: unknown }> };

/** The names of a schema's integer members, or none. */
export function integerMembers(schema: unknown): string[] {
  const properties = (schema as Properties | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, member]) => member.type === 'integer')
    .map(([name]) => name);
}

/**
 * Refuses integer parameters sent as text in any form but plain decimal digits (0x10, 1e1, " 5", "5.", 2.024e3),
 * which coercion would otherwise read as numbers. Numbers sent as JSON numbers are left to the schema.
 */
export function checkWholeNumbers(values: unknown, names: readonly string[], where = 'parameter'): void {
  if (names.length === 0 || values === null || typeof values !== 'object') return;
  for (const name of names) {
    const value = (values as Record<string, unknown>)[name];
    if (typeof value === 'string' && !WHOLE_NUMBER.test(value)) {
      throw new AppError(
        'invalid_params',
        `${where} "${name}" must be a whole number in decimal digits, like 25`,
      );
    }
  }
}

/** Whether `value` is a plain JSON object (not null, not a list): named members to read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The object at `path` below `value`, a member's name a step; undefined where a step is missing or not an object. */
export function recordAt(value: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let here = value;
  for (const name of path) here = isRecord(here) ? here[name] : undefined;
  return isRecord(here) ? here : undefined;
}
