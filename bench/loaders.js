// npm run bench:loaders: rows per second and peak memory of each loader on the largest real file of its
// source kept in the repository (assets/ and test/fixtures/real/). Each load runs in a fresh store in its own
// process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

const ASSETS = path.resolve('assets');
/** The text of a zip's first entry (deflated or stored). */
function firstEntry(file) {
  const bytes = readFileSync(file);
  const start = 30 + bytes.readUInt16LE(26) + bytes.readUInt16LE(28);
  const data = bytes.subarray(start, start + bytes.readUInt32LE(18));
  return (bytes.readUInt16LE(8) === 0 ? data : inflateRawSync(data)).toString('utf8');
}
const REAL = path.resolve('test/fixtures/real');
const cases = [
  ['cftc', [path.join(ASSETS, 'cftc/deacot2025.zip')]],
  ['cftc', [path.join(REAL, 'cftc/fut_disagg_txt_2021_f_year.zip')]],
  ['eia', [path.join(ASSETS, 'eia/psw01.xls')]],
  ['eia', [path.join(REAL, 'eia/ngshistory.xls')]],
  ['bls', [path.join(REAL, 'bls/cu.series.zip')]],
  ['bls', [path.join(ASSETS, 'bls/fred/CPIAUCNS.csv')]],
];
// A full year is about 18 MB; the shared file holds eleven weeks. Five copies of its rows under other years
// make a file of that size with real rows (only the dates differ).
const scratch = mkdtempSync(path.join(tmpdir(), 'quarry-bench-cftc-'));
{
  const [header, ...rows] = firstEntry(path.join(ASSETS, 'cftc/deacot2025.zip'))
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
