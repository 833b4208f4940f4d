// npm run bench:loaders: rows per second and peak memory of each loader on the largest shared file of its
// source (../shared/data). Each load runs in a fresh store in its own process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DATA = path.resolve('../shared/data');
const cases = [
  ['cftc', [path.join(DATA, 'cftc/deacot2025_annual.txt')]],
  ['cftc', [path.join(DATA, 'cftc/fut_disagg_txt_2021_f_year.txt')]],
  ['eia', [path.join(DATA, 'eia/psw01.xls')]],
  ['eia', [path.join(DATA, 'eia/ngshistory.xls')]],
  ['bls', [path.join(DATA, 'bls/cu.series.txt')]],
  ['bls', [path.join(DATA, 'bls/fred_cpi_vintage_2023-12/CPIAUCNS.csv')]],
];
// A full year is about 18 MB; the shared file holds eleven weeks. Five copies of its rows under other years
// make a file of that size with real rows (only the dates differ).
const scratch = mkdtempSync(path.join(tmpdir(), 'quarry-bench-cftc-'));
const legacy = path.join(DATA, 'cftc/deacot2025_annual.txt');
if (existsSync(legacy)) {
  const [header, ...rows] = readFileSync(legacy, 'utf8')
    .split('\r\n')
    .filter((l) => l.trim() !== '');
  const years = ['2021', '2022', '2023', '2024', '2025'];
  const body = years.flatMap((y) =>
    rows.map((r) => r.replaceAll('2025-', `${y}-`).replace(/,25(\d{4}),/, `,${y.slice(2)}$1,`)),
  );
  const big = path.join(scratch, 'annual_5y.txt');
  writeFileSync(big, `${[header, ...body].join('\r\n')}\r\n`);
  cases.unshift(['cftc', [big]]);
}
const results = [];
for (const [source, files] of cases) {
  if (!files.every(existsSync)) continue;
  const out = execFileSync(process.execPath, ['bench/ingest-one.js', source, ...files], { encoding: 'utf8' });
  results.push(JSON.parse(out.trim().split('\n').at(-1)));
}
rmSync(scratch, { recursive: true, force: true });
console.table(results.map((r) => ({ ...r, files: r.files.join(' ') })));
console.log('Target: a CFTC year file (about 18 MB) in under 10 s with peak memory under 300 MB.');
