// The store and the layers under the datasets name no dataset's table: a table is declared in its dataset's
// tables.ts, and only that folder queries it. Dependency rules cannot see a table named in a string, so this
// looks for query-builder calls and SQL that name one. Run by `npm run lint`; exits 1 naming each place.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(process.argv[2] ?? 'src');
const GUARDED = ['store', 'ingest', 'kernel', 'limits'];
// Landed migrations that made several EDGAR datasets' tables together (007 companies, events and exec_pay; 017
// registrants, with fixes to events and exec_pay) belong to the EDGAR source, as they landed.
const EXEMPT = [path.join(SRC, 'ingest', 'sec', 'migrations') + path.sep];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The tables each dataset adds to the store's Database type (its tables.ts). */
function datasetTables() {
  const tables = new Map();
  const root = path.join(SRC, 'datasets');
  for (const folder of readdirSync(root)) {
    const file = path.join(root, folder, 'tables.ts');
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const block = /interface Database \{([^}]*)\}/.exec(text)?.[1] ?? '';
    for (const [, name] of block.matchAll(/^\s*([a-z_][a-z0-9_]*)\s*:/gm)) tables.set(name, folder);
  }
  return tables;
}

const tables = datasetTables();
if (tables.size === 0) {
  console.error('check-table-names: no dataset declares a table (src/datasets/*/tables.ts)');
  process.exit(1);
}
const names = [...tables.keys()].join('|');
const BUILDER = new RegExp(
  `\\b(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|createTable|alterTable|dropTable|on|table|ref)\\(\\s*['"\`](${names})(?:\\.[a-z_]+)?['"\`]`,
  'g',
);
const RAW = new RegExp(`\\b(?:FROM|INTO|UPDATE|JOIN|TABLE)\\s+(${names})\\b`, 'gi');

const found = [];
for (const dir of GUARDED) {
  for (const file of files(path.join(SRC, dir))) {
    if (EXEMPT.some((prefix) => file.startsWith(prefix))) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const pattern of [BUILDER, RAW]) {
        for (const match of line.matchAll(pattern)) {
          found.push(
            `${path.relative(process.cwd(), file)}:${i + 1}: names ${match[1]}, a table of datasets/${tables.get(match[1])}`,
          );
        }
      }
    });
  }
}
if (found.length) {
  console.error(`A dataset's table named outside its folder (${GUARDED.join('/, ')}/ must stay generic):`);
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
console.log(
  `✔ no dataset table named in ${GUARDED.map((d) => `src/${d}/`).join(', ')} (${tables.size} tables)`,
);
