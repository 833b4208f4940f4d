// The quarry command's start-up beside Node's own: the median of five runs each of `node -e 0`,
// `quarry --version`, `quarry --help` and a store command that does next to nothing (`quarry accounts show`
// of an account that is not there, on a migrated store), measured in the same run. Run: npm run bench:cli.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const folder = mkdtempSync(path.join(tmpdir(), 'quarry-bench-cli-'));
const env = { ...process.env, QUARRY_DATA_DIR: folder };

function median(args) {
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

try {
  spawnSync(process.execPath, ['dist/cli/main.js', 'migrate'], { env, stdio: 'ignore' });
  const node = median(['-e', '0']);
  const rows = [
    ['node -e 0', node],
    ['quarry --version', median(['dist/cli/main.js', '--version'])],
    ['quarry --help', median(['dist/cli/main.js', '--help'])],
    ['quarry accounts show (a store command)', median(['dist/cli/main.js', 'accounts', 'show', '999'])],
  ];
  for (const [what, ms] of rows)
    console.log(`${what.padEnd(40)} ${ms.toFixed(0).padStart(5)} ms  (${(ms / node).toFixed(2)}x node)`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
