// buildApp: the one way the server, the CLI, the tests and the benchmarks make the HTTP app.
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  LogController,
} from 'fastify';
import { newRequestId } from '../accounts/key-text.js';
import { DATASETS } from '../datasets/registry.js';
import type { Config } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { compile, compileStrict } from '../kernel/validation.js';
import { registerCompression } from './compress.js';
import { registerConsole } from './console/index.js';
import { type Meter, pathOf } from './context.js';
import { clientError, sendError } from './error-reply.js';
import { attachHooks } from './hooks.js';
import { RouteMethods } from './methods.js';
import { OpenApiCollector } from './openapi.js';
import { MAX_PARAM_LENGTH, routerErrors } from './router-errors.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerBulkRoutes } from './routes/bulk.js';
import { registerDatasetRoutes } from './routes/datasets.js';
import { registerPublicRoutes } from './routes/datasets-public.js';
import { registerDocsRoutes } from './routes/docs.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMarketRoutes } from './routes/market.js';
import { registerMarketOpenApiRoute } from './routes/market-openapi.js';
import { registerMcpRoute } from './routes/mcp.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerStripeWebhook } from './routes/stripe.js';

/** Request ids a caller may choose: letters, digits and . _ : -, at most 64. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export async function buildApp(config: Config, deps: Deps): Promise<FastifyInstance> {
  const accessLines = ['info', 'debug', 'trace'].includes(config.logLevel);
  const app = serverOf(config, deps, accessLines);
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
  addRequestHooks(app, deps, accessLines);
  setErrorHandlers(app, methods);
  registerRoutes(app, config, deps, openapi);
  return app;
}

/** The Fastify server: its logger, request ids, limits and timeouts, and how it reads input. */
function serverOf(config: Config, deps: Deps, accessLines: boolean): FastifyInstance {
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
    frameworkErrors: routerErrors(deps),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  });
  // Query and path text is coerced to the declared types; a JSON body is checked as it is (1 is not "1").
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileStrict(schema) : compile(schema),
  );
  app.server.maxConnections = config.maxConnections;
  return app;
}

/** Each request's meter and id header, its telemetry and (at info and below) its access line. */
function addRequestHooks(app: FastifyInstance, deps: Deps, accessLines: boolean): void {
  // Fastify refuses an object as a decoration's starting value; onRequest gives each request its own.
  app.decorateRequest('meter', null as unknown as Meter);
  app.addHook('onRequest', (request, reply, done) => {
    request.meter = { principal: null, metered: null };
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
}

/** Every error through one handler; an unknown path or a method the path does not answer in the same words. */
function setErrorHandlers(app: FastifyInstance, methods: RouteMethods): void {
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = methods.allowed(path);
    // A message names the path, but never echoes more than a person reads of it.
    const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      const error = new AppError(
        'method_not_allowed',
        `${shown} answers ${allowed.join(', ')}, not ${request.method}.`,
      );
      return sendError(error, request, reply);
    }
    return sendError(new AppError('not_found', `No route ${request.method} ${shown}.`), request, reply);
  });
}

function registerRoutes(app: FastifyInstance, config: Config, deps: Deps, openapi: OpenApiCollector): void {
  registerPublicRoutes(app, deps, () =>
    openapi.document('datasets', {
      title: 'Quarry stored-datasets API',
      description:
        `Read-only access to stored datasets: ${DATASETS.map((d) => d.id).join(', ')}. ` +
        'Keyed routes take gds_ keys and spend credits from the account’s monthly period.',
      contact: config.contact,
      tags: {
        public: 'The catalog, the cost estimate, this description and synthetic samples: no key, no credits.',
        account: 'The account of the key: plan, credits and usage.',
        ...Object.fromEntries(DATASETS.map((dataset) => [dataset.id, dataset.name])),
      },
    }),
  );
  registerAccountRoutes(app, deps);
  registerDatasetRoutes(app, deps);
  registerBulkRoutes(app, deps);
  registerMarketRoutes(app, deps);
  registerMcpRoute(app, deps);
  registerHealthRoutes(app, deps);
  registerMetricsRoute(app, deps);
  registerDocsRoutes(app);
  registerConsole(app, deps);
  registerStripeWebhook(app, deps);
  registerMarketOpenApiRoute(app, () =>
    openapi.document('market', {
      title: 'Quarry market-data API',
      description:
        'Quotes, current values and history by ticker and field, in the service, exchange-suffixed and terminal ' +
        'forms. Data routes take svc_mcp_ keys with market-data-only access and a paid market plan.',
      contact: config.contact,
      tags: {
        quotes: 'Full quotes for tickers in any form.',
        data: 'Current values for tickers x fields.',
        history: 'Rows of values between dates.',
        reference: 'The field dictionary and this description: no key.',
      },
    }),
  );
}
