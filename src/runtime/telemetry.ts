// Telemetry as Prometheus metrics, one registry per process (per Deps): requests, latency, credits, units, the
// agency files loaded (read from the store at each scrape), the event loop's delay since the process started,
// and Node's own.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { Telemetry } from '../kernel/telemetry.js';
import { UPSTREAM_COUNTS } from '../market/providers/allowance.js';
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
  upstreamMetrics(registry);
  const loop = eventLoopDelay(registry);
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
    close() {
      loop.disable();
    },
  };
}

/**
 * Each market upstream's calls in this process, read at each scrape: sent and answered, failed, answered 429,
 * refused before they were sent (the shared allowance spent) or held back by a pause any instance learned of,
 * the seconds its calls took, and when the last pause this instance knows of ends.
 */
function upstreamMetrics(registry: Registry): void {
  new Counter({
    name: 'quarry_upstream_calls_total',
    help: 'Market upstream calls by upstream and outcome: sent, error (429s among them), too_many (429), refused (not sent: allowance spent), paused (not sent: in a pause).',
    labelNames: ['upstream', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [upstream, c] of UPSTREAM_COUNTS) {
        this.inc({ upstream, outcome: 'sent' }, c.calls);
        this.inc({ upstream, outcome: 'error' }, c.errors);
        this.inc({ upstream, outcome: 'too_many' }, c.tooMany);
        this.inc({ upstream, outcome: 'refused' }, c.refused);
        this.inc({ upstream, outcome: 'paused' }, c.paused);
      }
    },
  });
  new Counter({
    name: 'quarry_upstream_call_seconds_total',
    help: 'Seconds market upstream calls took, by upstream (over quarry_upstream_calls_total{outcome="sent"}: the mean).',
    labelNames: ['upstream'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [upstream, c] of UPSTREAM_COUNTS) this.inc({ upstream }, c.totalMs / 1000);
    },
  });
  new Gauge({
    name: 'quarry_upstream_pause_end_timestamp_seconds',
    help: 'When the last pause this instance knows of for a market upstream ends (a 429 asked for it), in Unix seconds; 0 when none was known. Paused while it is after time().',
    labelNames: ['upstream'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [upstream, c] of UPSTREAM_COUNTS) this.set({ upstream }, c.pausedUntil / 1000);
    },
  });
}

/** How often the event loop's delay is sampled, in ms: every sample is at least this late. */
const RESOLUTION_MS = 10;
/** Upper bounds of the delay histogram, in seconds (a sample is the resolution plus any block). */
const DELAY_BOUNDS = [0.011, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The event loop's delay from perf_hooks.monitorEventLoopDelay, kept since the process started: a histogram
 * of the samples (quarry_event_loop_delay_seconds; its buckets read from the monitor's percentiles at each
 * scrape), and the longest block (quarry_event_loop_longest_block_seconds: the largest delay less the
 * sampling resolution). While a request's work holds the loop, every other request waits this long.
 */
function eventLoopDelay(registry: Registry): { disable(): void } {
  const monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  monitor.enable();
  const name = 'quarry_event_loop_delay_seconds';
  const histogram = {
    name,
    help: `Event-loop delay samples since the process started (sampled every ${RESOLUTION_MS} ms, which each sample includes).`,
    type: 'histogram',
    aggregator: 'sum',
    collect() {},
    async get() {
      const count = monitor.count;
      // The share of samples at or below each bound, from the percentiles the monitor keeps.
      const steps = [...monitor.percentiles.entries()].map(([percent, ns]) => [percent, ns / 1e9] as const);
      const atOrBelow = (bound: number) =>
        Math.round((count * Math.max(0, ...steps.filter(([, s]) => s <= bound).map(([p]) => p))) / 100);
      const bucket = (le: string, value: number) => ({ metricName: `${name}_bucket`, labels: { le }, value });
      return {
        ...histogram,
        values: [
          ...DELAY_BOUNDS.map((bound) => bucket(String(bound), atOrBelow(bound))),
          bucket('+Inf', count),
          { metricName: `${name}_sum`, labels: {}, value: count === 0 ? 0 : (monitor.mean / 1e9) * count },
          { metricName: `${name}_count`, labels: {}, value: count },
        ],
      };
    },
  };
  // The registry takes any metric that describes itself; this one reads the monitor's own histogram.
  registry.registerMetric(histogram as unknown as Metric);
  new Gauge({
    name: 'quarry_event_loop_longest_block_seconds',
    help: 'The longest the event loop was held since the process started: the largest delay less the sampling resolution.',
    registers: [registry],
    collect() {
      this.set(monitor.count === 0 ? 0 : Math.max(0, monitor.max / 1e9 - RESOLUTION_MS / 1000));
    },
  });
  return monitor;
}
