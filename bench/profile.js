// Reads a CPU profile written by node --cpu-prof and names where the busy time went: the functions with the
// most samples of their own (idle left out), each with its share of the busy samples.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function labelOf({ callFrame }) {
  const file = callFrame.url ? callFrame.url.split('/').slice(-2).join('/') : '';
  const name = callFrame.functionName || '(anonymous)';
  return file ? `${name} (${file}:${callFrame.lineNumber + 1})` : name;
}

/** Node's arguments for a process that writes its CPU profile into `folder` as it ends. */
export function profilerArgs(folder, intervalMicros = 1000) {
  return ['--cpu-prof', `--cpu-prof-dir=${folder}`, `--cpu-prof-interval=${intervalMicros}`];
}

/** The `count` costliest functions by their own samples in the profile `file`: [{ cost, share }]. */
export function topCosts(file, count = 5) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const own = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const node = nodes.get(id);
    if (node.callFrame.functionName === '(idle)') continue;
    busy += 1;
    const label = labelOf(node);
    own.set(label, (own.get(label) ?? 0) + 1);
  }
  return [...own]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([cost, samples]) => ({ cost, share: `${((100 * samples) / busy).toFixed(1)} %` }));
}

/** The one profile a process wrote into `folder`. */
export function profileIn(folder) {
  const [file] = readdirSync(folder).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile was written in ${folder}`);
  return path.join(folder, file);
}
