// Property-based fuzzing over both OpenAPI documents: requests are drawn from each documented operation
// (its path and query parameters, its body, a key of the right kind or of the wrong one, another method,
// bad encodings, unknown and repeated parameters) and every answer must hold: no 5xx, the house error
// format with the request id, and a body valid against the schema documented for its status.
// `npm test` runs a bounded number of cases from a fixed seed; `npm run fuzz` runs many from a random one.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/kernel/errors.js';
import { bundledStore } from '../helpers/bundle.js';
import { customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';

const RUNS = Number(process.env.QUARRY_FUZZ_RUNS ?? 300);
const SEED = process.env.QUARRY_FUZZ_RUNS ? undefined : 20261123;

// biome-ignore lint/suspicious/noExplicitAny: walking parsed JSON documents
type Json = Record<string, any>;

interface Operation {
  doc: 'datasets' | 'market';
  method: string;
  path: string;
  op: Json;
}

interface Drawn {
  operation: Operation;
  method: string;
  url: string;
  key: 'datasets' | 'market' | 'bad' | 'long' | 'none';
  body?: { payload: string; type: string };
  /** If-None-Match sent: `*` names any answer, so a tagged route answers 304. */
  ifNoneMatch: string | null;
  /** A path parameter was drawn empty: the path is another route's (/v1/awards/ is /v1/awards). */
  elsewhere: boolean;
}

const MONTH = 'abcdefghijklmnopqrstuvwxyz';
/** Strings a careless or hostile client sends where a value is expected. */
const HOSTILE = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e3',
  '0x10',
  '5.',
  '9'.repeat(40),
  'null',
  '[]',
  '{}',
  '%',
  '%zz',
  '%00',
  '..',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>',
  '2024-02-30',
  '2024-13-01',
  '9999-12-31',
  '0000-01-01',
  'AAPL,,MSFT',
  ',',
  'é',
  '\u202e',
  MONTH,
);

function valueFor(schema: Json | undefined, name = ''): fc.Arbitrary<string> {
  // Mostly values of the documented shape, so that requests get past validation; the rest hostile or random.
  const fitting: fc.Arbitrary<string>[] = KNOWN[name] ? [fc.constantFrom(...(KNOWN[name] as string[]))] : [];
  const shapes = schema?.anyOf ?? [schema ?? {}];
  for (const shape of shapes as Json[]) {
    if (Array.isArray(shape.enum)) fitting.push(fc.constantFrom(...shape.enum.map(String)));
    if (shape.type === 'integer' || shape.type === 'number') {
      fitting.push(fc.integer({ min: shape.minimum ?? -5, max: shape.maximum ?? 3000 }).map(String));
    }
    if (shape.format === 'date') {
      fitting.push(
        fc
          .date({ min: new Date('1990-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10)),
      );
    }
    if (typeof shape.pattern === 'string') fitting.push(fc.stringMatching(new RegExp(shape.pattern)));
  }
  for (const example of [schema?.example, ...(schema?.examples ?? [])]) {
    if (example !== undefined) fitting.push(fc.constant(String(example)));
  }
  return fc.oneof(
    ...(fitting.length ? [{ weight: 12, arbitrary: fc.oneof(...fitting) }] : []),
    { weight: 1, arbitrary: HOSTILE },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  );
}

/** Path parameter values that the service's own data answers: a fuzz that only misses learns little. */
const KNOWN: Record<string, string[]> = {
  symbol: ['AAPL', 'MSFT', 'aapl'],
  contractCode: ['067651', '088691', '13874A'],
  year: ['2023', '2024'],
  dataset: ['cot', 'cpi', 'awards', 'weather'],
  id: ['1', 'award_1'],
  tickers: ['AAPL', 'AAPL,MSFT', 'BARC LN Equity,EURUSD=X,^GSPC', 'aapl,CL=F,ES1 Index', 'NOPE,AAPL'],
  fields: ['price', 'PX_LAST,volume', 'open,high,low', 'marketCap,PX_LAST', 'totalRevenue', 'nope,price'],
};

function encode(value: string): string {
  // A raw '%' keeps its bad encoding half the time; the rest is encoded as a client library would.
  return value.startsWith('%') ? value : encodeURIComponent(value);
}

/** Whether a parameter's description lists `endpoint` after `lead` ("Required by a, b." / "Taken by c."). */
function names(parameter: Json, lead: string, endpoint: string): boolean {
  const sentence = String(parameter.description ?? '')
    .split(/(?<=\.) /)
    .find((part) => part.startsWith(`${lead} `));
  return (
    sentence
      ?.slice(lead.length + 1, -1)
      .split(', ')
      .includes(endpoint) ?? false
  );
}

function drawFor(operation: Operation): fc.Arbitrary<Drawn> {
  const { op, path } = operation;
  const params = (op.parameters ?? []) as Json[];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(...pathParams.map((p) => valueFor(p.schema, p.name)));
  // Required parameters nearly always, and a few of the optional ones. Where the operation describes another
  // (the cost estimate's endpoint), mostly the parameters its description gives to the endpoint drawn.
  const endpoints = queryParams.find((p) => p.name === 'endpoint')?.schema?.enum as string[] | undefined;
  const required = queryParams.filter((p) => p.required && p.name !== 'endpoint');
  const optional = queryParams.filter((p) => !p.required);
  const somePicked = (from: Json[]) => fc.subarray(from, { maxLength: Math.min(3, from.length) });
  const described = endpoints
    ? fc.constantFrom(...endpoints).chain((endpoint) =>
        fc
          .oneof(
            {
              weight: 4,
              arbitrary: somePicked(optional.filter((p) => names(p, 'Taken by', endpoint))),
            },
            { weight: 1, arbitrary: somePicked(optional) },
          )
          .map((picked) => [
            { name: 'endpoint', schema: { enum: [endpoint] } },
            ...optional.filter((p) => names(p, 'Required by', endpoint)),
            ...picked,
          ]),
      )
    : somePicked(optional);
  const chosenParams = fc
    .tuple(
      fc.oneof(
        { weight: 12, arbitrary: fc.constant(required) },
        { weight: 1, arbitrary: fc.subarray(required) },
      ),
      described,
    )
    .map(([r, o]) => [...r, ...o]);
  const query = fc.tuple(
    chosenParams.chain((chosen) =>
      fc.tuple(...chosen.map((p) => valueFor(p.schema, p.name).map((v) => [p.name as string, v] as const))),
    ),
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom('zzz', 'LIMIT', 'from[]', '__proto__', 'constructor') },
    ),
    fc.integer({ min: 0, max: 9 }).map((n) => n < 1),
  );
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant(operation.method.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  );
  // The operation's own kind of key mostly; the wrong kind, a bad, an over-long or no key at times.
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constant<Drawn['key']>(operation.doc) },
    { weight: 1, arbitrary: fc.constantFrom<Drawn['key']>('bad', 'long', 'none', 'market', 'datasets') },
  );
  const schema = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
  const body = fc.oneof(
    {
      weight: 8,
      arbitrary: bodyFor(schema).map((v) => ({ payload: JSON.stringify(v), type: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc.jsonValue().map((v) => ({ payload: JSON.stringify(v), type: 'application/json' })),
    },
    { weight: 1, arbitrary: fc.string().map((v) => ({ payload: v, type: 'application/json' })) },
    { weight: 1, arbitrary: fc.string().map((v) => ({ payload: v, type: 'text/plain' })) },
  );
  const ifNoneMatch = fc.oneof(
    { weight: 12, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('*', '"nope"', 'W/"x", *', '') },
  );
  return fc.record({ pathValues, query, method, key, body, ifNoneMatch }).map((d) => {
    let url = path;
    pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, encode(d.pathValues[i] as string));
    });
    const [pairs, unknown, repeat] = d.query;
    const parts = pairs.map(([name, value]) => `${name}=${encode(value)}`);
    if (unknown) parts.push(`${unknown}=1`);
    if (repeat && parts[0]) parts.push(parts[0]);
    if (parts.length) url += `?${parts.join('&')}`;
    const withBody = d.method === 'POST' || d.method === 'PUT' || d.method === 'PATCH';
    const elsewhere = d.pathValues.some((value) => value === '' || value === '..' || value === '.');
    return {
      operation,
      method: d.method,
      url,
      key: d.key,
      ifNoneMatch: d.ifNoneMatch,
      elsewhere,
      ...(withBody ? { body: d.body } : {}),
    };
  });
}

/** A value shaped like the request body's schema, often not quite right. */
function bodyFor(schema: Json | undefined): fc.Arbitrary<unknown> {
  if (!schema?.properties) return fc.jsonValue();
  const members = Object.entries(schema.properties as Json).map(([name, property]) => {
    // A list member draws from the comma lists known for its name, split as a JSON client sends them.
    const known = (KNOWN[name] ?? []).flatMap((list) => list.split(','));
    const item: fc.Arbitrary<unknown> =
      property.type === 'array'
        ? fc.array(
            fc.oneof(
              { weight: 8, arbitrary: known.length ? fc.constantFrom(...known) : valueFor(property.items) },
              { weight: 1, arbitrary: valueFor(property.items) },
              { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)) },
            ),
            { maxLength: 12 },
          )
        : fc.oneof(
            { weight: 8, arbitrary: valueFor(property, name) },
            { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null)) },
          );
    return fc.option(item, { freq: 8 }).map((value) => [name, value] as const);
  });
  return fc
    .tuple(...members)
    .map((entries) => Object.fromEntries(entries.filter(([, value]) => value !== null)));
}

describe('fuzz: both OpenAPI documents', () => {
  let env: TestEnv;
  // A fixed start, so that a seed draws the same run on any day.
  // The instant the boards on real data stand at: the bundle loaded then is shared with them (bundledStore).
  const LOADED = new Date('2026-11-25T12:00:00.000Z');
  let now = LOADED.getTime();
  const keys: Record<Drawn['key'], string | null> = {
    datasets: null,
    market: null,
    bad: 'gds_notarealkey0000000000000000000',
    long: `gds_${'x'.repeat(5000)}`,
    none: null,
  };
  const docs: Record<string, Json> = {};
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);

  beforeAll(async () => {
    env = await testEnv({ clock: () => new Date(now), from: await bundledStore(LOADED) });
    keys.datasets = (await customer(env.deps)).key;
    keys.market = await marketKey(env.deps);
    for (const [doc, url] of [
      ['datasets', '/v1/datasets/openapi.json'],
      ['market', '/v1/openapi.json'],
    ]) {
      docs[doc as string] = (await env.app.inject({ url: url as string })).json();
      ajv.addSchema({ $id: `quarry:${doc}`, components: docs[doc as string]?.components });
    }
    // The bundle loads in about 47 s alone here: a budget for a hang, not a speed check.
  }, 300_000);
  afterAll(() => env.close());

  function operations(): Operation[] {
    return Object.entries(docs).flatMap(([doc, d]) =>
      Object.entries(d.paths as Json).flatMap(([path, ops]) =>
        Object.entries(ops as Json)
          .filter(([, op]) => !String(op.operationId).startsWith('openapi.'))
          .map(([method, op]) => ({
            doc: doc as Operation['doc'],
            method,
            path,
            op,
            // A counterexample names the operation, not its whole description.
            [fc.toStringMethod]: () => `${method.toUpperCase()} ${path}`,
          })),
      ),
    );
  }

  /** The schema with its references resolved against the document it came from. */
  function validator(doc: string, schema: Json) {
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"quarry:${doc}#/components/`);
    return ajv.compile(JSON.parse(text));
  }

  it(`${RUNS} drawn requests: no 5xx, the house error format, bodies valid against their documented schema`, async () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(20);
    const compiled = new Map<string, ReturnType<typeof validator>>();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all).chain(drawFor), async (drawn) => {
        now += 61_000; // past every per-minute window: the limits are tested elsewhere
        const key = keys[drawn.key];
        const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
        if (drawn.body) headers['content-type'] = drawn.body.type;
        if (drawn.ifNoneMatch !== null) headers['if-none-match'] = drawn.ifNoneMatch;
        const res = await env.app.inject({
          method: drawn.method as 'GET',
          url: drawn.url,
          headers,
          ...(drawn.body ? { payload: drawn.body.payload } : {}),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const what = `${drawn.method} ${drawn.url} (${drawn.key}) → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        expect(res.body, what).not.toMatch(/\n\s+at |node_modules|gds_x{20}/);
        if (res.statusCode === 304) {
          expect(drawn.ifNoneMatch, what).toMatch(/\*/);
          expect(res.body, what).toBe('');
          expect(drawn.operation.op.responses['304'], `undocumented 304: ${what}`).toBeDefined();
          return;
        }
        // A file (a bulk download) is checked for a documented type; every other answer is JSON.
        const type = String(res.headers['content-type'] ?? '');
        if (res.statusCode < 400 && !type.startsWith('application/json')) {
          const documented = Object.keys(drawn.operation.op.responses[String(res.statusCode)]?.content ?? {});
          expect(
            documented.some((t) => type.startsWith(t)),
            `undocumented content type: ${what}`,
          ).toBe(true);
          return;
        }
        const body = res.json();
        if (res.statusCode >= 400) {
          expect(Object.keys(body).sort(), what).toEqual(['error', 'message', 'requestId']);
          expect(ERROR_STATUS[body.error as ErrorCode], what).toBe(res.statusCode);
          expect(body.requestId, what).toBe(res.headers['x-request-id']);
        }
        // Another method on the path answers 405 (or 404 where the path is not served at all).
        const sameMethod = drawn.method === drawn.operation.method.toUpperCase();
        if ((!sameMethod && res.statusCode >= 400) || drawn.elsewhere) return;
        const response = drawn.operation.op.responses[String(res.statusCode)];
        expect(response, `undocumented status: ${what}`).toBeDefined();
        const schema = response.content?.['application/json']?.schema;
        if (!schema) return;
        const id = `${drawn.operation.doc} ${drawn.operation.op.operationId} ${res.statusCode}`;
        let validate = compiled.get(id);
        if (!validate) {
          validate = validator(drawn.operation.doc, schema);
          compiled.set(id, validate);
        }
        expect(validate(body) ? [] : validate.errors, what).toEqual([]);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    if (SEED === undefined) console.log('statuses', JSON.stringify(Object.fromEntries(statuses)));
    // The draw reaches answers as well as refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 20);
  }, 600_000);
});
