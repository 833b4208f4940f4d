// buildApp: the one way the server, the CLI, the tests and the benchmarks make the HTTP app.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { admit, type Door } from '../accounts/admit.js';
import { newRequestId } from '../accounts/key-text.js';
import { OPERATIONS } from '../datasets/registry.js';
import type { Config } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import {
  AppError,
  ERROR_MEANING,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorPayload,
} from '../kernel/errors.js';
import { compile, compileStrict, describeError } from '../kernel/validation.js';
import { registerCompression } from './compress.js';
import type { Meter } from './context.js';
import { attachHooks } from './hooks.js';
import { readKey } from './key.js';
import { RouteMethods } from './methods.js';
import { OpenApiCollector } from './openapi.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerDatasetRoutes } from './routes/datasets.js';
import { registerPublicRoutes } from './routes/datasets-public.js';
import { registerDocsRoutes } from './routes/docs.js';
import { registerHealthRoutes } from './routes/health.js';
import { MARKET_SEGMENTS, registerMarketRoutes } from './routes/market.js';
import { registerMarketPublicRoutes } from './routes/market-public.js';
import { registerMcpRoute } from './routes/mcp.js';
import { registerMetricsRoute } from './routes/metrics.js';

/** The first path segment of every keyed dataset operation (/v1/cftc/…, /v1/kpis/…), from the registry. */
const DATASET_SEGMENTS = new Set(OPERATIONS.map((op) => op.url.split('/')[2]));

/** The door a keyed path belongs to, read from its first segments; null for public and unknown paths. */
function doorOfPath(path: string): Door | null {
  const segment = path.split('/')[2] ?? '';
  if (MARKET_SEGMENTS.has(segment)) return 'market';
  if (DATASET_SEGMENTS.has(segment)) return 'datasets';
  if (/^\/v1\/datasets\/(account|usage)\/?$/.test(path)) return 'datasets';
  return null;
}

/** Request ids a caller may choose: letters, digits and . _ : -, at most 64. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export async function buildApp(config: Config, deps: Deps): Promise<FastifyInstance> {
  const accessLines = ['info', 'debug', 'trace'].includes(config.logLevel);
  const app = Fastify({
    logger: { level: config.logLevel },
    // Above info no line is written per request, so a request logs through the server's logger rather
    // than a child made for it; the few lines then written carry the request id themselves.
    ...(accessLines ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
    // One access line per response from our own onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // A caller's own X-Request-Id is kept when it is a short, safe token, so a trace can follow it here.
    genReqId: (raw) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : newRequestId();
    },
    requestIdHeader: false,
    bodyLimit: 256 * 1024,
    // Slow clients are cut off (docs: Configuration); Node checks the two timeouts every second.
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    clientErrorHandler: clientError,
    exposeHeadRoutes: false,
    // Malformed URLs and the like are answered by the same error model as everything else.
    // A path the router cannot read (bad percent-encoding, a parameter too long) is judged after the key, as
    // every other parameter is: a caller with a bad key learns that first.
    frameworkErrors: (error, request, reply) => {
      const door = doorOfPath(request.url.split('?')[0] as string);
      if (door === null) return sendError(error, request, reply);
      return Promise.resolve()
        .then(() => admit(deps, readKey(request), door))
        .then(
          () => sendError(error, request, reply),
          (refusal: AppError) => sendError(refusal, request, reply),
        );
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1100 },
  });
  // Query and path text is coerced to the declared types; a JSON body is checked as it is (1 is not "1").
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileStrict(schema) : compile(schema),
  );
  app.server.maxConnections = config.maxConnections;

  const openapi = new OpenApiCollector();
  const methods = new RouteMethods();
  app.addHook('onRoute', (route) => {
    methods.add(route);
    const meta = route.config?.meta;
    if (!meta) return;
    attachHooks(route, meta, deps);
    openapi.collect(route);
  });

  registerCompression(app);
  app.decorateRequest('meter', null as unknown as Meter);
  app.addHook('onRequest', (request, reply, done) => {
    request.meter = { principal: null, call: null, receipt: null, balance: null, rate: null, units: null };
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const doc = request.routeOptions.config?.meta?.doc;
    const api = doc === 'datasets' || doc === 'market' ? doc : route === '/mcp' ? 'mcp' : 'ops';
    deps.telemetry.request(api, route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (accessLines) {
    app.addHook('onResponse', (request, reply, done) => {
      const principal = request.meter?.principal;
      request.log.info(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: reply.elapsedTime,
          ...(principal ? { account: principal.account.id, key: principal.key.id } : {}),
        },
        'request',
      );
      done();
    });
  }

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] as string;
    const allowed = methods.allowed(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      const error = new AppError(
        'method_not_allowed',
        `${path} answers ${allowed.join(', ')}, not ${request.method}.`,
      );
      return sendError(error, request, reply);
    }
    return sendError(new AppError('not_found', `No route ${request.method} ${path}.`), request, reply);
  });

  registerPublicRoutes(app, deps, () =>
    openapi.document('datasets', {
      title: 'Quarry stored-datasets API',
      description:
        'Read-only access to stored datasets: awards, kpis-guidance, exec-pay, events, cpi, energy-inventories ' +
        'and cot. Keyed routes take gds_ keys and spend credits from the account’s monthly period.',
    }),
  );
  registerAccountRoutes(app, deps);
  registerDatasetRoutes(app, deps);
  registerMarketRoutes(app, deps);
  registerMcpRoute(app, deps);
  registerHealthRoutes(app, deps);
  registerMetricsRoute(app, deps);
  registerDocsRoutes(app);
  registerMarketPublicRoutes(app, () =>
    openapi.document('market', {
      title: 'Quarry market-data API',
      description:
        'Quotes, current values and history by ticker and field, in the service, exchange-suffixed and terminal ' +
        'forms. Data routes take svc_mcp_ keys with market-data-only access and a paid market plan.',
    }),
  );
  return app;
}

/**
 * What Node's HTTP parser refuses before a request exists (a timeout, headers too large, a malformed line or
 * length): answered in the house format with a request id of our own, then the connection is closed.
 */
function clientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'request_timeout'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'headers_too_large'
        : 'malformed_request';
  const requestId = newRequestId();
  const body = JSON.stringify({
    error: code,
    message: ERROR_MEANING[code],
    requestId,
  } satisfies ErrorPayload);
  if (socket.writable) {
    const status = ERROR_STATUS[code];
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function sendError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const { code, message, headers } = classify(error);
  if (code === 'internal_error' || code === 'service_unavailable') {
    request.log.error({ err: error, reqId: request.id }, 'request failed');
  }
  const body: ErrorPayload = { error: code, message, requestId: request.id };
  return reply.code(ERROR_STATUS[code]).header('x-request-id', request.id).headers(headers).send(body);
}

function classify(error: FastifyError | AppError): {
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
} {
  if (error instanceof AppError) {
    const headers: Record<string, string> =
      error.retryAfterSeconds === null ? {} : { 'retry-after': String(error.retryAfterSeconds) };
    return { code: error.code, message: error.message, headers };
  }
  if (error.validation) {
    const first = error.validation[0];
    const where = error.validationContext === 'body' ? 'field' : 'parameter';
    return {
      code: 'invalid_params',
      message: first ? describeError(first as never, where) : 'invalid request',
      headers: {},
    };
  }
  const status = error.statusCode ?? 500;
  if (status === 413)
    return { code: 'payload_too_large', message: 'The request body is too large.', headers: {} };
  if (status === 415)
    return { code: 'unsupported_media_type', message: 'Send the body as application/json.', headers: {} };
  if (status === 404) return { code: 'not_found', message: 'Not found.', headers: {} };
  if (status >= 400 && status < 500) return { code: 'invalid_params', message: error.message, headers: {} };
  if (isUnavailable(error)) {
    return {
      code: 'service_unavailable',
      message: 'A backing store is unreachable; try again shortly.',
      headers: { 'retry-after': '1' },
    };
  }
  return {
    code: 'internal_error',
    message: 'The request failed on our side; any credits charged were refunded.',
    headers: {},
  };
}

function isUnavailable(error: { code?: string }): boolean {
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'SQLITE_BUSY', '57P01', '57P03'].includes(
    error.code ?? '',
  );
}
