// Part of `npm run build`, after tsc: bundles the quarry command (dist/cli/main.js) into one file and a chunk
// per lazily loaded command, in dist/cli itself, so that a command starts without resolving ~1,100 modules
// (ADR 029: a store command's start-up 440 ms -> 120 ms). Native and file-reading packages stay outside
// the bundle: they are loaded from node_modules as before. The modules tsc wrote stay for the tests and tools
// that import them; only main.js is replaced.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/cli';
// Packages with native code, or that read files beside their own modules, are not bundled.
const EXTERNAL = ['better-sqlite3', '@duckdb/node-api', 'pg', 'pg-native', 'swagger-ui-dist'];

// Chunks of an earlier build are removed: their names change with their content.
for (const name of readdirSync(OUT)) if (name.startsWith('chunk-')) rmSync(path.join(OUT, name));

await build({
  entryPoints: [`${OUT}/main.js`],
  outdir: OUT,
  allowOverwrite: true,
  bundle: true,
  // A command's modules are imported when it runs (cli/commands.ts): each such import becomes a chunk.
  splitting: true,
  // Beside main.js, so that paths the modules take from import.meta.url (../../assets/) still resolve.
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external: EXTERNAL,
  // CommonJS packages inside the bundle call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as quarryRequire } from 'node:module'; const require = quarryRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
