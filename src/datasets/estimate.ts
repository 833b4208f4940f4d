// The cost estimate (credits.estimate): a described call is judged exactly as its route would judge it,
// then priced. Spends nothing and needs no key.
import { type TObject, Type } from 'typebox';
import { CALL_TYPE_CREDITS, price } from '../accounts/pricing.js';
import { checkWholeNumbers, integerMembers, validateOrThrow } from '../kernel/validation.js';
import { FORMATS } from './bulk/produce.js';
import type { DatasetOperation } from './operation.js';
import { P } from './params.js';
import { DATASETS, OPERATION_BY_ID, OPERATIONS } from './registry.js';

/** The bulk file of each dataset, priced by the estimate as its route charges it. */
const BULK_ENDPOINTS = DATASETS.map((d) => `${d.id}.bulk`);
const BulkArguments = Type.Object(
  { format: Type.Optional(Type.Enum([...FORMATS])), asOf: Type.Optional(P.asOf) },
  { additionalProperties: false },
);
/** One bulk call: what GET /v1/datasets/{dataset}/bulk charges for a file not paid for that day. */
const bulkCallPrice = () => price('bulk', 1);

export const Estimate = Type.Object({
  endpoint: Type.String({ description: 'The described operation.' }),
  method: Type.Literal('GET'),
  path: Type.String({ description: 'The path the described call would request.' }),
  callType: Type.String({ description: 'Credit call type of the call.' }),
  callTypeCredits: Type.Integer({ description: 'Credits of one call of that type.' }),
  multiplier: Type.Integer({ description: "The route's multiplier." }),
  credits: Type.Integer({ description: 'Credits the call would cost: callTypeCredits x multiplier.' }),
});

export const EstimateQuery = Type.Object(
  {
    endpoint: Type.Enum([...OPERATIONS.map((op) => op.id), ...BULK_ENDPOINTS], {
      description:
        'The operation to price; give its path and query parameters alongside. DATASET.bulk prices a bulk ' +
        'file (format, asOf): 25 credits, and a download of the same file within 24 hours of its charge is free.',
    }),
  },
  { additionalProperties: true },
);

/** Path and query parameters of an operation as one closed schema (the estimate's and the tools' arguments). */
const combined = new Map<string, TObject>();
export function argumentsSchema(op: DatasetOperation): TObject {
  let schema = combined.get(op.id);
  if (!schema) {
    schema = Type.Object(
      { ...(op.params?.properties ?? {}), ...op.querystring.properties },
      {
        additionalProperties: false,
        required: [...(op.params?.required ?? []), ...(op.querystring.required ?? [])],
      },
    ) as TObject;
    combined.set(op.id, schema);
  }
  return schema;
}

/** `input` has passed EstimateQuery: endpoint names an operation; the rest are that call's parameters. */
export function estimateCost(input: Record<string, unknown>) {
  const { endpoint, ...described } = input;
  if (BULK_ENDPOINTS.includes(String(endpoint))) return bulkEstimate(String(endpoint), described);
  const op = OPERATION_BY_ID.get(String(endpoint)) as DatasetOperation;
  const { params, query } = operationInput(op, described);
  const price = op.price(query);
  const path = op.url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  return {
    endpoint: op.id,
    method: 'GET' as const,
    path,
    callType: price.callType,
    callTypeCredits: CALL_TYPE_CREDITS[price.callType],
    multiplier: price.multiplier,
    credits: price.credits,
  };
}

/** A bulk file's estimate: its format and asOf judged as the bulk route judges them. */
function bulkEstimate(endpoint: string, described: Record<string, unknown>) {
  validateOrThrow(BulkArguments, described);
  const dataset = endpoint.slice(0, -'.bulk'.length);
  const price = bulkCallPrice();
  return {
    endpoint,
    method: 'GET' as const,
    path: `/v1/datasets/${dataset}/bulk`,
    callType: price.callType,
    callTypeCredits: CALL_TYPE_CREDITS[price.callType],
    multiplier: price.multiplier,
    credits: price.credits,
  };
}

/** An operation's input from one object of arguments: validated as its route validates them, then refined. */
export function operationInput(op: DatasetOperation, args: Record<string, unknown>) {
  const schema = argumentsSchema(op);
  checkWholeNumbers(args, integerMembers(schema));
  validateOrThrow(schema, args);
  const paramNames = Object.keys(op.params?.properties ?? {});
  const params = Object.fromEntries(paramNames.map((name) => [name, args[name]]));
  const query = Object.fromEntries(Object.entries(args).filter(([name]) => !paramNames.includes(name)));
  op.refine?.({ params, query });
  return { params, query };
}

/** How an operation is priced, in words, for the API descriptions. */
export function describePrice(op: DatasetOperation): string {
  const base = op.price({});
  const ranged = op.price({ from: '2000-01-01' });
  const text = `${base.credits} credits (${base.callType} x${base.multiplier})`;
  return ranged.credits === base.credits
    ? text
    : `${text}; ${ranged.credits} credits (${ranged.callType} x${ranged.multiplier}) when from or to is given`;
}

/**
 * The estimate's query as the API description shows it: endpoint and every parameter some operation takes,
 * each saying which operations take it. The estimate validates them as the named operation does.
 */
export const DescribedCallQuery = Type.Object(
  {
    endpoint: EstimateQuery.properties.endpoint,
    ...Object.fromEntries(
      [...new Set(OPERATIONS.flatMap((op) => Object.keys(argumentsSchema(op).properties)))].map((name) => {
        const takers = OPERATIONS.filter((op) => name in argumentsSchema(op).properties);
        const shapes = new Map(
          takers.map((op) => {
            const {
              description: _d,
              examples: _e,
              ...shape
            } = argumentsSchema(op).properties[name] as Record<string, unknown>;
            return [JSON.stringify(shape), shape];
          }),
        );
        const [only] = shapes.values();
        const schema = shapes.size === 1 ? only : { anyOf: [...shapes.values()] };
        const needs = takers.filter((op) => argumentsSchema(op).required?.includes(name));
        const takes = takers.filter((op) => !needs.includes(op));
        const description = [
          needs.length ? `Required by ${needs.map((op) => op.id).join(', ')}.` : '',
          takes.length ? `Taken by ${takes.map((op) => op.id).join(', ')}.` : '',
        ]
          .filter(Boolean)
          .join(' ');
        return [name, Type.Optional(Type.Unsafe({ ...schema, description }))];
      }),
    ),
  },
  { additionalProperties: false },
);
