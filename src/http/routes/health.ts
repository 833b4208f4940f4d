// Operations: GET /healthz (the process answers; touches nothing) and GET /readyz (the store, the counters and
// the schema; 503 naming the part that is not). Unkeyed, free, outside both APIs' limits.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.js';
import { readiness } from '../../runtime/health.js';

export function registerHealthRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (request, reply) => {
    const { ready, checks } = await readiness(deps, (part, error) =>
      request.log.error({ err: error, reqId: request.id, part }, 'readiness check failed'),
    );
    reply.header('cache-control', 'no-store');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
