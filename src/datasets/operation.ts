// A keyed dataset route, described once: the registrar, the cost estimate and the API description all
// read the same definition.
import type { TObject, TSchema } from 'typebox';
import type { Price } from '../accounts/pricing.js';
import type { Deps } from '../kernel/deps.js';
import type { EnvelopeValue } from './envelope.js';

export interface OperationInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

export interface DatasetOperation {
  /** Operation id, as the cost estimate names it (e.g. cot.board). */
  id: string;
  /** The dataset it reads, whose usage a call counts towards. */
  dataset: string;
  /** Route in Fastify form: /v1/cftc/cot/contracts/:contractCode */
  url: string;
  summary: string;
  description: string;
  params?: TObject;
  querystring: TObject;
  data: TSchema;
  price: (query: Record<string, unknown>) => Price;
  refine?: (input: OperationInput) => void;
  read: (deps: Deps, input: OperationInput) => Promise<EnvelopeValue<unknown>>;
}

export function define(op: DatasetOperation): DatasetOperation {
  return op;
}
