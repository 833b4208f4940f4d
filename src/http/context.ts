// What a request carries through the hooks, and what a route declares in its config.

import type { FastifyRequest } from 'fastify';
import type { Principal } from '../accounts/keys.js';
import type { MeteredCall } from '../accounts/metered-call.js';
import type { Price } from '../accounts/pricing.js';
import type { MaybePromise } from '../kernel/steps.js';
import { isRecord } from '../kernel/validation.js';

/** A request's query, path parameters or form as named members ({} when there are none). */
export function membersOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** A request URL's path, without its query. */
export const pathOf = (url: string): string => url.split('?')[0] ?? url;

/** Which API description a route belongs to. */
export type ApiDoc = 'datasets' | 'market' | 'none';

export interface Meter {
  principal: Principal | null;
  /** The admitted call's metering: what it was charged, given back, and the caller's standing. */
  metered: MeteredCall | null;
}

export interface RouteMeta {
  doc: ApiDoc;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  /**
   * The key the route takes: `datasets` a gds_ key (metered in credits, credit headers), `market` a svc_mcp_ key
   * (units per call, unit headers); absent: no key.
   */
  key?: 'datasets' | 'market';
  /** Part of the stored-datasets API: behind DATA_API_ENABLED. */
  datasetsApi?: boolean;
  /** Refuse repeated and empty query parameters before validation. */
  strictQuery?: boolean;
  /** The credits a call costs, from its validated parameters and its caller; absent: 0. */
  price?: (query: Record<string, unknown>, principal: Principal) => MaybePromise<Price>;
  /** Dataset whose usage a call counts towards. */
  dataset?: string;
  /** The units a market-data call costs, from its validated input. */
  units?: (input: { query: Record<string, unknown>; body: unknown }) => number;
  /** The query parameters to document, where they are wider than the validating schema says (the cost estimate's). */
  documentedQuery?: object;
  /** Answers are files of these content types (200, or 206 for a Range), not JSON. */
  files?: readonly string[];
  /** Answers carry an ETag and honour If-None-Match with a 304. */
  conditional?: boolean;
  /**
   * Checks across parameters that a schema cannot express (e.g. from on or before to), or against what the call
   * would read (a bulk file's byte range): run before the call is charged, so a refusal costs nothing.
   */
  refine?: (input: {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    headers: FastifyRequest['headers'];
  }) => MaybePromise<void>;
  /** Undoes what `price` reserved when the charge is refused (a bulk file's claim). */
  refused?: (query: Record<string, unknown>, principal: Principal) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    meter: Meter;
  }
  interface FastifyContextConfig {
    meta?: RouteMeta;
  }
}
