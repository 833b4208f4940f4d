// The layering of src/ (docs/adr/009-layers-and-verbs.md), checked by `npm run lint`:
//   foundation  kernel/ store/ limits/   errors, config, Deps; the store engines; the counters
//   ingestion   ingest/                  source files, load runs, the read cache
//   domains     accounts/ datasets/ market/
//   wiring      runtime/                 builds Deps from the config; the combined loader table
//   transports  http/ mcp/ cli/
// Imports point down this list, never up; the domains do not import one another except datasets -> accounts
// (prices and plans); the kernel takes only types from store/ and limits/.
const layer = (name) => `^src/${name}/`;
const above = {
  foundation: '^src/(ingest|accounts|datasets|market|runtime|http|mcp|cli)/',
  ingest: '^src/(accounts|datasets|market|runtime|http|mcp|cli)/',
  domains: '^src/(runtime|http|mcp|cli)/',
  runtime: '^src/(http|mcp|cli)/',
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and hide which module owns what.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'foundation-imports-nothing-above',
      severity: 'error',
      comment: 'kernel, store and limits sit under every domain and transport.',
      from: { path: '^src/(kernel|store|limits)/' },
      to: { path: above.foundation },
    },
    {
      name: 'kernel-takes-only-types-from-infrastructure',
      severity: 'error',
      comment: 'Deps names the store and counter types; their implementations are chosen in runtime/.',
      from: { path: layer('kernel') },
      to: { path: '^src/(store|limits)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'ingest-imports-no-domain',
      severity: 'error',
      comment: 'Shared ingestion machinery serves datasets and market alike.',
      from: { path: layer('ingest') },
      to: { path: above.ingest },
    },
    {
      name: 'domains-import-no-transport',
      severity: 'error',
      comment: 'Verbs take (deps, input): no Fastify, MCP or CLI object reaches a domain.',
      from: { path: '^src/(accounts|datasets|market)/' },
      to: { path: above.domains },
    },
    {
      name: 'domains-stay-apart',
      severity: 'error',
      comment: 'market and datasets share only the layers below them; accounts depends on neither.',
      from: { path: '^src/(accounts|market)/' },
      to: { path: '^src/(accounts|datasets|market)/', pathNot: '^src/$1/' },
    },
    {
      name: 'datasets-stay-apart',
      severity: 'error',
      comment:
        'A dataset is its folder: it imports no other dataset. What several share lives below them (datasets/*.ts, datasets/bulk/, ingest/sec/ for EDGAR).',
      from: { path: '^src/datasets/([^/]+)/' },
      to: { path: '^src/datasets/(?!bulk/)[^/]+/', pathNot: '^src/datasets/$1/' },
    },
    {
      name: 'datasets-import-no-market',
      severity: 'error',
      from: { path: layer('datasets') },
      to: { path: layer('market') },
    },
    {
      name: 'runtime-imports-no-transport',
      severity: 'error',
      from: { path: layer('runtime') },
      to: { path: above.runtime },
    },
    {
      name: 'mcp-does-not-import-http',
      severity: 'error',
      comment: 'The MCP tools are built from the verbs; http mounts them, not the other way round.',
      from: { path: layer('mcp') },
      to: { path: layer('http') },
    },
    {
      name: 'no-framework-below-transports',
      severity: 'error',
      comment: 'Fastify and the MCP SDK belong to the transports.',
      from: { path: '^src/(kernel|store|limits|ingest|accounts|datasets|market|runtime)/' },
      to: { path: '(^|/)node_modules/(fastify|@fastify|@modelcontextprotocol)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
