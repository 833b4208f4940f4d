// npm run docs:tools: writes docs/mcp-tools.md from the MCP tools' schemas (after npm run build).
import { writeFileSync } from 'node:fs';
import { toolsReference } from '../dist/mcp/reference.js';

writeFileSync(new URL('../docs/mcp-tools.md', import.meta.url), toolsReference());
console.log('docs/mcp-tools.md written');
