// Counts type assertions (`x as T`, except `as const`) in src/, by top-level folder: the typed-edges measure.
// Non-null assertions are counted beside them; the only one the house writes is an indexed read the code
// knows is in range (`a[i]!`, under noUncheckedIndexedAccess), and --check fails on any other.
// --check also fails when src/ holds more than MOST_CASTS type assertions: a new one is paid for by an old one.
// node scripts/count-casts.js [--check] [folder…]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The most type assertions src/ may hold. */
const MOST_CASTS = 300;

const isConst = (node) => ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';
const args = process.argv.slice(2);
const check = args.includes('--check');
const wanted = args.filter((a) => a !== '--check');
const byFolder = new Map();
const stray = [];
let casts = 0;
let indexed = 0;
for (const file of files(path.resolve('src'))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const folder = path.relative('src', file).split(path.sep)[0];
  const counts = byFolder.get(folder) ?? { casts: 0, indexed: 0 };
  const visit = (node) => {
    if (ts.isAsExpression(node) && !isConst(node)) counts.casts += 1;
    if (ts.isNonNullExpression(node)) {
      if (ts.isElementAccessExpression(node.expression)) counts.indexed += 1;
      else {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        stray.push(`${path.relative('.', file)}:${line + 1}: ${node.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  byFolder.set(folder, counts);
}
if (check) {
  if (stray.length > 0) {
    console.error('non-null assertions on something other than an indexed read:');
    for (const place of stray) console.error(`  ${place}`);
    process.exit(1);
  }
  console.log('✔ every non-null assertion is an indexed read');
  const total = [...byFolder.values()].reduce((sum, c) => sum + c.casts, 0);
  if (total > MOST_CASTS) {
    console.error(
      `${total} type assertions in src/, more than ${MOST_CASTS}: type the edge instead (node scripts/count-casts.js lists them by folder)`,
    );
    process.exit(1);
  }
  console.log(`✔ ${total} type assertions in src/ (at most ${MOST_CASTS})`);
  process.exit(0);
}
console.log(`${'folder'.padEnd(10)} ${'as'.padStart(5)} ${'a[i]!'.padStart(6)}`);
for (const [folder, c] of [...byFolder].sort((a, b) => b[1].casts - a[1].casts)) {
  if (wanted.length > 0 && !wanted.includes(folder)) continue;
  console.log(`${folder.padEnd(10)} ${String(c.casts).padStart(5)} ${String(c.indexed).padStart(6)}`);
  casts += c.casts;
  indexed += c.indexed;
}
console.log(`${'total'.padEnd(10)} ${String(casts).padStart(5)} ${String(indexed).padStart(6)}`);
