// POST /mcp: the MCP server over Streamable HTTP, stateless, JSON responses, on the same port as the APIs.
// The key is admitted here (svc_mcp_ keys of either access level, gds_ keys for the dataset tools); a refusal
// is the house error body, and a 401 says how to authenticate (WWW-Authenticate: Bearer).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { admit } from '../../accounts/admit.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError, ERROR_STATUS } from '../../kernel/errors.js';
import { createMcpServer } from '../../mcp/server.js';
import { readKey } from '../key.js';

export function registerMcpRoute(app: FastifyInstance, deps: Deps): void {
  app.post('/mcp', async (request, reply) => {
    let principal: Awaited<ReturnType<typeof admit>>;
    try {
      principal = await admit(deps, readKey(request), 'mcp');
      request.meter.principal = principal;
    } catch (error) {
      if (error instanceof AppError && ERROR_STATUS[error.code] === 401) {
        reply.header('www-authenticate', `Bearer realm="quarry", error="invalid_token"`);
      }
      throw error;
    }
    const server = createMcpServer(deps, {
      api: principal.key.api === 'datasets' ? 'datasets' : 'market',
      principal: () => principal,
      requestId: () => request.id,
      failed: (error) => request.log.error({ err: error, reqId: request.id }, 'tool call failed'),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      // The SDK's transport speaks web Requests; the body is already parsed, so only the headers cross over.
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      }
      const url = `http://${request.host}${request.url}`;
      const answer = await transport.handleRequest(new Request(url, { method: 'POST', headers }), {
        parsedBody: request.body,
      });
      reply.code(answer.status);
      answer.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.send(await answer.text());
    } finally {
      void transport.close();
      void server.close();
    }
  });
  const notAllowed = async () => {
    throw new AppError(
      'method_not_allowed',
      'This MCP server is stateless: send JSON-RPC requests with POST /mcp.',
    );
  };
  app.get('/mcp', async (_request, reply) => {
    reply.header('allow', 'POST');
    return notAllowed();
  });
  app.delete('/mcp', async (_request, reply) => {
    reply.header('allow', 'POST');
    return notAllowed();
  });
}
