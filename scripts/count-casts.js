// Counts type assertions (`x as T`, except `as const`) in src/, by top-level folder: the typed-edges measure.
// node scripts/count-casts.js [folder…]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const byFolder = new Map();
let total = 0;
for (const file of files(path.resolve('src'))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let count = 0;
  const visit = (node) => {
    if (
      ts.isAsExpression(node) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const')
    )
      count += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  const folder = path.relative('src', file).split(path.sep)[0];
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + count);
  total += count;
}
const wanted = process.argv.slice(2);
for (const [folder, count] of [...byFolder].sort((a, b) => b[1] - a[1]))
  if (wanted.length === 0 || wanted.includes(folder)) console.log(`${folder.padEnd(10)} ${count}`);
console.log(`${'total'.padEnd(10)} ${total}`);
