// Telemetry as Prometheus metrics, one registry per process (per Deps): requests, latency, credits, units, the
// agency files loaded (read from the store at each scrape) and Node's own (event-loop lag among them).
import type { Kysely } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Telemetry } from '../kernel/telemetry.js';
import type { Database } from '../store/schema.js';

export function createTelemetry(db: Kysely<Database>): Telemetry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'quarry_' });
  const requests = new Counter({
    name: 'quarry_http_requests_total',
    help: 'Requests answered, by API, route, method and status.',
    labelNames: ['api', 'route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'quarry_http_request_duration_seconds',
    help: 'Time to answer a request, by API and route.',
    labelNames: ['api', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 12],
    registers: [registry],
  });
  const credits = new Counter({
    name: 'quarry_credits_total',
    help: 'Credits charged and refunded, by dataset.',
    labelNames: ['kind', 'dataset'],
    registers: [registry],
  });
  const units = new Counter({
    name: 'quarry_market_units_total',
    help: 'Market-data units taken, by door (market routes or mcp).',
    labelNames: ['door'],
    registers: [registry],
  });
  new Gauge({
    name: 'quarry_source_files',
    help: 'Source files loaded into the store, by dataset (loads run in any process; read at each scrape).',
    labelNames: ['dataset'],
    registers: [registry],
    async collect() {
      const rows = await db
        .selectFrom('source_files')
        .select(['dataset', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('dataset')
        .execute();
      this.reset();
      for (const r of rows) this.set({ dataset: r.dataset }, Number(r.n));
    },
  });
  return {
    request(api, route, method, status, seconds) {
      requests.inc({ api, route, method, status: String(status) });
      latency.observe({ api, route }, seconds);
    },
    credits(kind, amount, dataset) {
      credits.inc({ kind, dataset }, amount);
    },
    units(amount, door) {
      units.inc({ door }, amount);
    },
    async exposition() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
