// A market request as the verbs take it from a GET query: its comma lists split and the other named
// parameters kept where given (a POST body or MCP arguments already are one). The route's schema has checked
// the shapes.

/** The verb's request from a GET query: `lists` split at commas, `options` kept where given. */
export function fromQuery<T>(
  query: Record<string, unknown>,
  lists: readonly string[],
  options: readonly string[] = [],
): T {
  const q = query as Record<string, string | undefined>;
  const request: Record<string, unknown> = {};
  for (const name of lists) request[name] = (q[name] ?? '').split(',');
  for (const name of options) if (q[name]) request[name] = q[name];
  return request as T;
}

/** Inputs answered once each, in the order first given. */
export function uniqueInputs(inputs: string[]): string[] {
  const seen = new Set<string>();
  return inputs.map((i) => i.trim()).filter((i) => i !== '' && !seen.has(i) && seen.add(i));
}
