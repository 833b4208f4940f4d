// What the service counts about itself, as the verbs and transports report it: a port, implemented with
// Prometheus metrics in src/runtime/telemetry.ts and carried in Deps.
export interface Telemetry {
  /** A request answered: which API (datasets, market, mcp, ops), route pattern, method, status, seconds. */
  request(api: string, route: string, method: string, status: number, seconds: number): void;
  /** Credits taken for a call of `dataset` (or given back, refunded). */
  credits(kind: 'charged' | 'refunded', amount: number, dataset: string): void;
  /** Market-data units taken, through `door` (market routes or mcp). */
  units(amount: number, door: string): void;
  /** The metrics in the Prometheus text format, and its content type. */
  exposition(): Promise<{ contentType: string; text: string }>;
  /** Stops what it samples in the background (the event loop's delay). */
  close(): void;
}
