// The tools as the server lists them: each tool's input (its arguments, or a continuation alone) and output
// schema (the REST answer plus the page members), its annotations, and how its answer is written as REST
// writes it. Prepared once per process.
import fastJson from 'fast-json-stringify';
import { type TObject, Type } from 'typebox';
import { DATASET_TOOLS } from './dataset-tools.js';
import { MARKET_TOOLS } from './market-tools.js';
import type { Tool } from './tool.js';

const PageInfo = Type.Object(
  {
    start: Type.Object({ element: Type.Integer(), row: Type.Integer() }),
    totals: Type.Object(
      { elements: Type.Integer(), rows: Type.Integer() },
      { description: 'The whole answer: its list elements (items) and their rows.' },
    ),
  },
  { description: 'Present when the answer is cut: where this page starts in the whole answer.' },
);

export interface Prepared {
  tool: Tool;
  listed: object;
  wire: (answer: object) => object;
}

function prepare(tool: Tool): Prepared {
  const output = tool.output as TObject;
  const outputSchema = Type.Object({
    ...output.properties,
    continuation: Type.Optional(
      Type.String({
        description: 'Pass it alone as the arguments of the next call for the rest of the answer.',
      }),
    ),
    page: Type.Optional(PageInfo),
  });
  return {
    tool,
    listed: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: withContinuation(tool.input),
      outputSchema: JSON.parse(JSON.stringify(outputSchema)),
      annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    wire: tool.wire ?? serialiseWith(fastJson(output as never) as (answer: object) => string),
  };
}

const serialiseWith = (serialise: (answer: object) => string) => (answer: object) =>
  JSON.parse(serialise(answer)) as object;

/** A tool's arguments, or {continuation} alone. */
function withContinuation(input: TObject): object {
  const schema = JSON.parse(JSON.stringify(input)) as {
    properties: Record<string, unknown>;
    required?: string[];
  };
  return {
    ...schema,
    properties: {
      ...schema.properties,
      continuation: { type: 'string', description: 'From a cut answer: pass it alone for the next page.' },
    },
  };
}

const TOOLS = {
  market: MARKET_TOOLS.map(prepare),
  datasets: DATASET_TOOLS.map(prepare),
};

export function toolsFor(api: 'market' | 'datasets'): readonly Prepared[] {
  return TOOLS[api];
}
