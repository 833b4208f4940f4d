// The suite, the benchmarks and the scripts run from a clone alone: nothing under src/, test/, bench/ or
// scripts/ may read the data folder kept beside the project. Real files the tests need are copied into
// test/fixtures/ or assets/. Run by `npm run lint`; exits 1 naming each place.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'test', 'bench', 'scripts'];
// Spelled in two pieces so that this file does not name it.
const OUTSIDE = ['..', 'shared'].join('/');
const SKIP = new Set(['node_modules', 'fixtures']);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|js|cjs|mjs|py|sh)$/.test(name) ? [full] : [];
  });
}

const found = [];
for (const file of ROOTS.flatMap((root) => files(root))) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.includes(OUTSIDE)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
}
if (found.length > 0) {
  console.error(`These read files from outside the repository (copy them into test/fixtures/ or assets/):`);
  for (const place of found) console.error(`  ${place}`);
  process.exit(1);
}
