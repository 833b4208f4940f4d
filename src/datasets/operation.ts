// A keyed dataset route, described once: the registrar, the cost estimate and the API description all
// read the same definition. Its read, refine and price see the parameters as their schemas type them.
import type { Static, TObject, TSchema } from 'typebox';
import type { Price } from '../accounts/pricing.js';
import type { Deps } from '../kernel/deps.js';
import type { EnvelopeValue } from './envelope.js';

export interface OperationInput<Q = Record<string, unknown>, P = Record<string, unknown>> {
  params: P;
  query: Q;
}

/** An operation whose query and path parameters are typed by its schemas `Q` and `P`. */
export interface Operation<Q extends TObject, P extends TObject> {
  /** Operation id, as the cost estimate names it (e.g. cot.board). */
  id: string;
  /** The dataset it reads, whose usage a call counts towards. */
  dataset: string;
  /** Route in Fastify form: /v1/cftc/cot/contracts/:contractCode */
  url: string;
  /** The member of its data that holds the answer's list, where it has one (a tool's table is made of it). */
  list?: string;
  summary: string;
  description: string;
  params?: P;
  querystring: Q;
  data: TSchema;
  price: (query: Static<Q>) => Price;
  refine?: (input: OperationInput<Static<Q>, Static<P>>) => void;
  read: (deps: Deps, input: OperationInput<Static<Q>, Static<P>>) => Promise<EnvelopeValue<unknown>>;
}

/** Every operation of the registry, under one type: the route, the estimate and the hooks hold them so. */
export type DatasetOperation = Operation<TObject, TObject>;

export function define<Q extends TObject, P extends TObject = TObject>(
  op: Operation<Q, P>,
): DatasetOperation {
  // Each caller validates the query and path against these same schemas before price, refine or read runs.
  return op as unknown as DatasetOperation;
}
