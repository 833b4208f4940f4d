// Which methods the routes serve at a path, so that a path served under another method answers 405 with
// Allow rather than 404.
import type { RouteOptions } from 'fastify';

export class RouteMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // :name matches one path segment; the router ignores a trailing slash, and so does this.
    const source = route.url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.routes.push({ pattern: new RegExp(`^${source}/?$`), methods: new Set(methods) });
  }

  /** The methods served at `path`, sorted; empty when no route has the path. */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const { pattern, methods } of this.routes)
      if (pattern.test(path)) for (const m of methods) out.add(m);
    return [...out].sort();
  }
}
