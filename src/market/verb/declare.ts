// A market verb, declared once for every door: its request and answer schemas, its price in units, which key
// a REST call needs, its routes and its MCP tool. The HTTP routes, the MCP tools, the OpenAPI document, the
// tools reference and the clients' types are all made from these declarations (src/market/registry.ts).
import type { Static, TObject } from 'typebox';
import type { Deps } from '../../kernel/deps.js';
import { isoDate } from './request.js';

/**
 * The key a REST call needs: `market` a market-data key (svc_mcp_), whose minute and day the call's units
 * come from; `none` no key and no units. Over MCP every call is keyed and takes one unit.
 */
export type MarketKey = 'market' | 'none';

/** The verb as an HTTP route: GET with comma lists in the query, POST with the request schema as its body. */
export interface RestDoor {
  path: string;
  methods: readonly ('GET' | 'POST')[];
  summary: string;
  description: string;
  /** The OpenAPI tag; default the verb's name. */
  tag?: string;
  /** The GET operation's id; default `<name>.get` (the POST's is `<name>.post`). */
  getId?: string;
  /** The GET query string's schema (lists as comma-separated text). */
  query: TObject;
  /**
   * The verb's request from a validated GET query: lists split at commas. What the query schema cannot say of
   * those members (an action type's name) the verb checks, as it checks a body's.
   */
  fromQuery(query: Record<string, unknown>): Record<string, unknown>;
  /** Answers carry an ETag and honour If-None-Match. */
  conditional?: boolean;
}

/** The verb as an MCP tool, named `market.<…>`. */
export interface ToolDoor {
  name: string;
  title: string;
  description: string;
}

/**
 * A verb whose request is typed by its schema `I`, read once a call into `R` (checked, with its defaults), and
 * whose answer is `A` (written by the schema `response`).
 */
export interface MarketVerb<I extends TObject, R, A extends object> {
  name: string;
  key: MarketKey;
  /** The POST body and the tool's arguments; closed. */
  request: I;
  /** The answer's schema (the REST response body). */
  response: TObject;
  /**
   * The request checked against the verb's limits (invalid_params past them) and with its defaults, read once a
   * call: its units and its answer both take this reading.
   */
  read(input: Static<I>, today: string): R;
  /** Units a keyed REST call takes. */
  units?(request: R): number;
  answer(deps: Deps, request: R): Promise<A>;
  rest?: RestDoor;
  tool: ToolDoor;
  /**
   * The answer as text with its ETag, where the route writes it itself rather than through the answer schema's
   * serialiser (a history answer of tens of thousands of rows).
   */
  text?(answer: A): Promise<{ bytes: Buffer; etag: string }>;
  /** The answer as the REST route writes it, where the answer schema's serialiser would drop members. */
  wire?(answer: A): object;
}

/** A declared verb, with `run`: read and answer in one step, today from the deps' clock. */
export type DeclaredVerb<I extends TObject, R, A extends object> = MarketVerb<I, R, A> & {
  run(deps: Deps, input: Static<I>): Promise<A>;
};

/** Every verb of the registry under one type; each door validates the input with the verb's own schemas first. */
export type AnyMarketVerb = DeclaredVerb<TObject, unknown, object>;

/**
 * A verb typed by its request schema. The registry keeps it among verbs of any request (`read`, `units` and
 * `answer` are methods): sound because every door validates with `request` (or `rest.query`) before it reads,
 * and gives `units` and `answer` only what `read` returned.
 */
export function marketVerb<I extends TObject, R, A extends object>(
  declared: MarketVerb<I, R, A>,
): DeclaredVerb<I, R, A> {
  return {
    ...declared,
    run: (deps, input) => declared.answer(deps, declared.read(input, todayOf(deps))),
  };
}

/** Today's date as the verbs read default windows, from the deps' clock. */
export const todayOf = (deps: Pick<Deps, 'clock'>) => isoDate(deps.clock());
