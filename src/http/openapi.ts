// OpenAPI 3.1 documents built from the routes as registered: the same TypeBox schemas that validate
// requests and serialise responses describe them here.
import type { RouteOptions } from 'fastify';
import { ERROR_CODES, ERROR_MEANING, ERROR_STATUS, ErrorBody } from '../kernel/errors.js';
import type { ApiDoc, RouteMeta } from './context.js';

type Json = Record<string, unknown>;

/** `value` if it is a JSON object (a schema, a map of them), else undefined. */
function objectAt(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : undefined;
}

/** The strings of `value` if it is a list. */
function stringsAt(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

interface CollectedRoute {
  method: string;
  url: string;
  meta: RouteMeta;
  schema: Json;
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '304': 'Not modified: the answer is the one named in If-None-Match (the call is metered all the same)',
  '400': 'Invalid parameters, or a request that is not valid HTTP',
  '401': 'Missing, unknown, revoked or wrong key',
  '402': 'No active plan, or not enough credits',
  '403': 'Key disabled or too broad',
  '404': 'Not found',
  '405': 'The path does not answer this method; Allow lists the ones it does',
  '408': 'The request did not arrive in time',
  '413': 'Request body too large',
  '415': 'Request body is not JSON',
  '429': 'Rate limited; see Retry-After',
  '431': 'Request headers too large',
  '500': 'Server error',
  '503': 'Switched off or unavailable',
};

/** What any route can answer before or around its own handling: the HTTP layer's refusals and failures. */
const EVERY_ROUTE = ['400', '405', '408', '431', '500'];
const WITH_BODY = ['413', '415'];

const CREDIT_HEADERS: Json = {
  'X-Credits-Cost': {
    description: 'Credits charged for this request (0 after a refund).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Credits-Remaining': {
    description: "Credits remaining in the account's current period (absent when no key was recognised).",
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Plan': {
    description: 'Plan of the account (absent when no key was recognised).',
    schema: { type: 'string', enum: ['basic', 'desk', 'enterprise'] },
  },
  'X-Request-Id': { description: 'Request identifier.', schema: { type: 'string' } },
  RateLimit: {
    description: 'Credits left in the current minute: "credits";r=REMAINING;t=SECONDS.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'Per-minute credit limit: "credits";q=LIMIT;w=60.',
    schema: { type: 'string' },
  },
};

const REQUEST_ID_HEADER: Json = { 'X-Request-Id': CREDIT_HEADERS['X-Request-Id'] };
const UNIT_HEADERS: Json = {
  ...REQUEST_ID_HEADER,
  'X-Service-Units': {
    description: "Units this call took from the key's 120 a minute and 5000 a day.",
    schema: { type: 'integer', minimum: 0 },
  },
};
const RETRY_AFTER: Json = {
  'Retry-After': { description: 'Seconds until the limit resets.', schema: { type: 'integer', minimum: 1 } },
};

export interface ApiInfo {
  title: string;
  description: string;
  /** Every tag the document's operations use, with what it groups. */
  tags: Record<string, string>;
  /** The operator's contact (QUARRY_CONTACT), when configured. */
  contact?: string | null;
}

export class OpenApiCollector {
  private readonly routes: CollectedRoute[] = [];

  /** Called from Fastify's onRoute hook. */
  collect(route: RouteOptions): void {
    const meta = route.config?.meta;
    if (!meta || meta.doc === 'none') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      this.routes.push({
        method: method.toLowerCase(),
        url: route.url,
        meta,
        schema: objectAt(route.schema) ?? {},
      });
    }
  }

  document(doc: ApiDoc, info: ApiInfo): Json {
    const paths: Record<string, Json> = {};
    const schemas: Record<string, Json> = { Error: errorSchema() };
    for (const route of this.routes.filter((r) => r.meta.doc === doc)) {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      paths[path] ??= {};
      paths[path][route.method] = named(operation(route), schemas);
    }
    const used = new Set(
      Object.values(paths).flatMap((ops) =>
        Object.values(ops).flatMap((op) => stringsAt(objectAt(op)?.tags)),
      ),
    );
    return {
      openapi: '3.1.0',
      info: {
        title: info.title,
        version: '1.0.0',
        description: info.description,
        license: { name: 'Proprietary: use under the terms of your plan' },
        ...(info.contact ? { contact: { email: info.contact } } : {}),
      },
      servers: [{ url: '/' }],
      tags: Object.entries(info.tags)
        .filter(([name]) => used.has(name))
        .map(([name, description]) => ({ name, description })),
      paths,
      components: {
        schemas,
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
    };
  }
}

function errorSchema(): Json {
  const codes = ERROR_CODES.map((code) => `- \`${code}\` (${ERROR_STATUS[code]}): ${ERROR_MEANING[code]}`);
  return {
    ...strip(ErrorBody),
    description: `Every error response has this body. Codes:\n${codes.join('\n')}`,
  };
}

/** A file's answers: the whole file, a byte range of it, or nothing new (If-None-Match). */
function fileResponses(types: readonly string[], headers: Json): Json {
  const content = Object.fromEntries(
    types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
  );
  const fileHeaders = {
    ...headers,
    ETag: {
      description: 'The file: its dataset, version, asOf day, format and encoding.',
      schema: { type: 'string' },
    },
    'Content-Length': { schema: { type: 'integer' } },
    'Content-Encoding': {
      description: 'gzip: the stored gzip copy (CSV, NDJSON).',
      schema: { type: 'string' },
    },
    'X-Bulk-Version': {
      description: "The dataset's version the file was made from.",
      schema: { type: 'integer' },
    },
    'X-Bulk-Rows': { description: 'Rows in the file.', schema: { type: 'integer' } },
  };
  return {
    '200': { description: 'The whole file.', headers: fileHeaders, content },
    '206': {
      description: 'The bytes the Range asked for (of the gzip copy when gzip is accepted).',
      headers: { ...fileHeaders, 'Content-Range': { schema: { type: 'string' } } },
      content,
    },
    '304': { description: STATUS_TEXT['304'], headers },
  };
}

function operation(route: CollectedRoute): Json {
  const { meta, schema } = route;
  const parameters = [
    ...parametersOf(objectAt(schema.params), 'path'),
    ...parametersOf(objectAt(meta.documentedQuery ?? schema.querystring), 'query'),
  ];
  const headers =
    meta.key === 'datasets' ? CREDIT_HEADERS : meta.key === 'market' ? UNIT_HEADERS : REQUEST_ID_HEADER;
  const declared = objectAt(schema.response) ?? {};
  const statuses = new Set([
    ...Object.keys(declared),
    ...EVERY_ROUTE,
    ...(schema.body ? WITH_BODY : []),
    ...(meta.key ? ['503'] : []),
  ]);
  const responses: Json = {};
  if (meta.conditional) responses['304'] = { description: STATUS_TEXT['304'], headers };
  if (meta.files) Object.assign(responses, fileResponses(meta.files, headers));
  for (const status of [...statuses].sort()) {
    if (responses[status]) continue;
    const isError = Number(status) >= 400;
    responses[status] = {
      description: isError ? errorDescription(status) : (STATUS_TEXT[status] ?? 'Response'),
      headers: status === '429' ? { ...headers, ...RETRY_AFTER } : headers,
      content: {
        'application/json': {
          schema: isError ? { $ref: '#/components/schemas/Error' } : strip(objectAt(declared[status]) ?? {}),
        },
      },
    };
  }
  const op: Json = {
    operationId: meta.operationId,
    summary: meta.summary,
    tags: meta.tags ?? [],
    parameters,
    responses,
  };
  if (meta.description) op.description = meta.description;
  const body = objectAt(schema.body);
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: strip(body) } } };
  // Public operations say so: no key is sent, and none is looked at.
  op.security = meta.key ? [{ bearer: [] }, { apiKey: [] }] : [];
  return op;
}

/**
 * The operation with every schema that has a title moved to the document's components and referred to by
 * name, so that generated clients get named types. One title, one shape: a second shape under a taken
 * title is a mistake in the schemas, refused here (and so by the tests).
 */
function named(value: Json, schemas: Record<string, Json>): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    const title = out.title;
    const isSchema = 'type' in out || 'anyOf' in out;
    if (!isSchema || typeof title !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(title)) return out;
    const held = schemas[title];
    if (held && JSON.stringify(held) !== JSON.stringify(out)) {
      throw new Error(`Two different schemas are titled ${title}`);
    }
    schemas[title] = out;
    return { $ref: `#/components/schemas/${title}` };
  };
  return objectAt(walk(value)) ?? {};
}

function errorDescription(status: string): string {
  const codes = ERROR_CODES.filter((code) => String(ERROR_STATUS[code]) === status);
  return `${STATUS_TEXT[status] ?? 'Error'}. Codes: ${codes.join(', ')}.`;
}

function parametersOf(schema: Json | undefined, where: 'path' | 'query'): Json[] {
  if (!schema?.properties) return [];
  const required = new Set(stringsAt(schema.required));
  return Object.entries(objectAt(schema.properties) ?? {}).map(([name, property]) => {
    const { description, examples, ...rest } = strip(objectAt(property) ?? {});
    const parameter: Json = {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: rest,
    };
    if (description) parameter.description = description;
    if (Array.isArray(examples) && examples.length > 0) parameter.example = examples[0];
    return parameter;
  });
}

/** A plain JSON copy of a schema. */
function strip(schema: object): Json {
  const copy: Json = JSON.parse(JSON.stringify(schema));
  return copy;
}
