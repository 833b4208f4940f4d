// quarry mcp: the MCP server over stdio for a local agent, serving the key in QUARRY_API_KEY. The key is
// admitted again on every call, so a revoked key or an ended plan stops the session's tools within seconds.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { admit } from '../accounts/admit.js';
import { newRequestId } from '../accounts/key-text.js';
import type { Config } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import { createMcpServer } from '../mcp/server.js';
import { UsageError } from './output.js';

export async function mcpCommand(config: Config, deps: Deps): Promise<void> {
  const key = config.apiKey;
  if (!key) throw new UsageError('quarry mcp serves the key in QUARRY_API_KEY (svc_mcp_… or gds_…); set it');
  const first = await admit(deps, key, 'mcp');
  const server = createMcpServer(deps, {
    api: first.key.api === 'datasets' ? 'datasets' : 'market',
    principal: () => admit(deps, key, 'mcp'),
    requestId: newRequestId,
    failed: (error) => process.stderr.write(`quarry mcp: a tool call failed: ${String(error)}\n`),
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
