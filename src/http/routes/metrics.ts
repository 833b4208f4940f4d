// GET /metrics, the Prometheus text format. With QUARRY_METRICS_TOKEN set it answers only `Authorization:
// Bearer <token>`; without one it answers only when the server listens on a loopback address (a scraper on the
// same machine), and is hidden (404) elsewhere.
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { readKey } from '../key.js';

function loopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function registerMetricsRoute(app: FastifyInstance, deps: Deps): void {
  const { metricsToken, host } = deps.config;
  app.get('/metrics', async (request, reply) => {
    if (metricsToken === null && !loopback(host)) {
      throw new AppError('not_found', 'No route GET /metrics.');
    }
    if (metricsToken !== null) {
      const given = readKey(request);
      if (given === null) {
        reply.header('www-authenticate', 'Bearer realm="quarry-metrics"');
        throw new AppError('missing_key', 'Send the metrics token as "Authorization: Bearer …".');
      }
      if (!sameText(given, metricsToken)) {
        reply.header('www-authenticate', 'Bearer realm="quarry-metrics"');
        throw new AppError('invalid_key', 'The metrics token is not this server’s.');
      }
    }
    const { contentType, text } = await deps.telemetry.exposition();
    reply.header('cache-control', 'no-store');
    return reply.type(contentType).send(text);
  });
}
