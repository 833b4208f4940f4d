// One load in a fresh store, in its own process so that its peak memory is its own: prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadFile } from '../dist/ingest/run.js';
import { loadConfig } from '../dist/runtime/config.js';
import { createDeps } from '../dist/runtime/deps.js';
import { LOADERS } from '../dist/runtime/loaders.js';

const [source, ...files] = process.argv.slice(2);
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-load-'));
const deps = await createDeps(loadConfig({ QUARRY_DATA_DIR: dir, LOG_LEVEL: 'silent' }));
const started = process.hrtime.bigint();
let rows = 0;
for (const file of files) rows += (await loadFile(deps, LOADERS[source], file)).lines;
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
await deps.close();
rmSync(dir, { recursive: true, force: true });
const maxRssMB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `${JSON.stringify({ source, files: files.map((f) => path.basename(f)), rows, seconds: +seconds.toFixed(2), rowsPerSecond: Math.round(rows / seconds), peakRssMB: Math.round(maxRssMB) })}\n`,
);
