// POST /mcp: the MCP server over Streamable HTTP, stateless, JSON responses, on the same port as the APIs.
// The key is admitted here (svc_mcp_ keys of either access level, gds_ keys for the dataset tools); a refusal
// is the house error body, and a 401 says how to authenticate (WWW-Authenticate: Bearer).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
    } catch (error) {
      if (error instanceof AppError && ERROR_STATUS[error.code] === 401) {
        reply.header('www-authenticate', `Bearer realm="quarry", error="invalid_token"`);
      }
      throw error;
    }
    const server = createMcpServer(deps, {
      principal,
      requestId: request.id,
      failed: (error) => request.log.error({ err: error, reqId: request.id }, 'tool call failed'),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
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
