// Reading a key from a request: Authorization: Bearer first, then x-api-key (spec: Authentication).
import type { FastifyRequest } from 'fastify';

export function readKey(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const header = request.headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
