// A tool of the MCP server: a verb with its arguments' and answer's schemas, and how its answer is paged.
import type { Static, TObject } from 'typebox';
import type { Price } from '../accounts/pricing.js';
import type { Deps } from '../kernel/deps.js';
import type { Layout } from './pages.js';

/** A tool whose verb takes the arguments its input schema describes (checked against it before any call). */
export interface Tool<I extends TObject = TObject, O extends object = object> {
  name: string;
  title: string;
  description: string;
  /** Which keys see the tool: svc_mcp_ keys the market tools, gds_ keys the dataset tools. */
  api: 'market' | 'datasets';
  input: I;
  /** The REST route's response body for the same request. */
  output: TObject;
  layout: Layout;
  /** Refuses arguments the REST route would refuse before charging (limits, from after to), beyond the schema. */
  check?(deps: Deps, args: Static<I>): void;
  run(deps: Deps, args: Static<I>): Promise<O>;
  /**
   * The answer as the REST route writes it, when not through the output schema's serialiser (which drops
   * members the schema does not name): the answer itself where the schema keeps every member.
   */
  wire?(answer: O): object;
  /** Dataset tools: the REST route's operation and price, charged in credits. */
  credits?: { operation: string; dataset?: string; price(args: Static<I>): Price };
}

/**
 * A tool typed by its input schema, kept among tools of any input: the server validates the arguments with
 * that schema before `check`, `run` or `price` sees them, which is what makes the narrowing sound.
 */
export function tool<I extends TObject, O extends object>(declared: Tool<I, O>): Tool {
  return declared;
}
