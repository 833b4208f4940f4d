// A tickers x fields request as the verbs take it: the POST body as sent, or the GET query with its comma lists
// split and the other named parameters kept where given. The route's schema has checked their shapes.

export interface RouteInput {
  query: Record<string, unknown>;
  body: unknown;
}

export function tickersByFields<T>(input: RouteInput, options: readonly string[]): T {
  if (input.body) return input.body as T;
  const q = input.query as Record<string, string | undefined>;
  const request: Record<string, unknown> = {
    tickers: (q.tickers ?? '').split(','),
    fields: (q.fields ?? '').split(','),
  };
  for (const name of options) if (q[name]) request[name] = q[name];
  return request as T;
}
