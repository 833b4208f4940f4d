// The tools reference (docs/mcp-tools.md), written from the tools' own descriptions and schemas.
import { type ListedMember, type Prepared, toolsFor } from './catalog.js';

type Schema = ListedMember;

function typeOf(schema: Schema): string {
  if (schema.enum) return schema.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array') {
    const most = schema.maxItems === undefined ? '' : `, at most ${schema.maxItems}`;
    return `array of ${schema.items ? typeOf(schema.items) : 'any'}${most}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  return schema.format ? `${type} (${schema.format})` : type;
}

function section({ listed: tool }: Prepared): string {
  const required = new Set(tool.inputSchema.required ?? []);
  const rows = Object.entries(tool.inputSchema.properties ?? {}).map(
    ([name, schema]) =>
      `| \`${name}\` | ${required.has(name) ? 'yes' : 'no'} | ${typeOf(schema)} | ${(schema.description ?? '').replace(/\|/g, '\\|')} |`,
  );
  const members = Object.keys(tool.outputSchema.properties ?? {}).map((m) => `\`${m}\``);
  return [
    `### \`${tool.name}\` — ${tool.title}`,
    '',
    tool.description,
    '',
    '| argument | required | type | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Answer (\`structuredContent\`): ${members.join(', ')}.`,
    '',
  ].join('\n');
}

export function toolsReference(): string {
  return [
    '# MCP tools reference',
    '',
    'Written by `npm run docs:tools` from the tools’ own descriptions and schemas; a test keeps it current.',
    'Every tool is read-only. Each result carries a compact table in `content` and the REST route’s answer in',
    '`structuredContent`; an answer longer than the text budget ends with `continuation`, which the next call',
    'passes alone (`{"continuation": "…"}`) for the rest, and `page` (where the page starts, the totals).',
    '',
    '## Market tools (`svc_mcp_` keys; one unit a call, its later pages free, from the key’s 120 a minute and 5,000 a day)',
    '',
    ...toolsFor('market').map(section),
    '## Dataset tools (`gds_` keys; credits as the route; later pages of a cut answer are free)',
    '',
    ...toolsFor('datasets').map(section),
  ].join('\n');
}
