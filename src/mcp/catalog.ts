// The tools as the server lists them: each tool's input (its arguments, or a continuation alone) and output
// schema (the REST answer plus the page members), its annotations, and how its answer is written as REST
// writes it. Prepared once per process.
import fastJson from 'fast-json-stringify';
import { type TObject, Type } from 'typebox';
import { BULK_LINK_TOOL } from './bulk-tool.js';
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

/** A JSON schema as tools/list gives it (plain JSON, as TypeBox writes it). */
export interface ListedSchema {
  type: 'object';
  description?: string;
  properties: Record<string, ListedMember>;
  required?: string[];
}

/** A member's schema, as the tools reference reads it. */
export interface ListedMember {
  type?: string | string[];
  description?: string;
  properties?: Record<string, ListedMember>;
  required?: string[];
  items?: ListedMember;
  enum?: unknown[];
  anyOf?: ListedMember[];
  maxItems?: number;
  format?: string;
}

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ListedSchema;
  outputSchema: ListedSchema;
  annotations: { title: string; readOnlyHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** A TypeBox object schema as plain JSON. */
function listedSchema(schema: TObject): ListedSchema {
  const json: ListedSchema = JSON.parse(JSON.stringify(schema));
  return json;
}

export interface Prepared {
  tool: Tool;
  listed: ListedTool;
  wire: (answer: object) => object;
}

function prepare(tool: Tool): Prepared {
  const output = tool.output;
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
      outputSchema: listedSchema(outputSchema),
      annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    wire: tool.wire ?? serialiseWith(fastJson(output)),
  };
}

const serialiseWith = (serialise: (answer: object) => string) => (answer: object) => {
  const written: object = JSON.parse(serialise(answer));
  return written;
};

/** A tool's arguments, or {continuation} alone. */
function withContinuation(input: TObject): ListedSchema {
  const schema = listedSchema(input);
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
  datasets: [...DATASET_TOOLS, BULK_LINK_TOOL].map(prepare),
};

export function toolsFor(api: 'market' | 'datasets'): readonly Prepared[] {
  return TOOLS[api];
}
