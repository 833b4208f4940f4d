// The real agency files bundled with the project (assets/), loaded by `quarry serve --demo` into an empty store:
// each dataset's, as its descriptor lists them, then the market's.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatasetDescriptor } from '../datasets/descriptor.js';
import { DATASET_BY_ID, DATASETS } from '../datasets/registry.js';
import type { LoadReport } from '../ingest/import.js';
import { type DemoFile, type LoadDeps, loadFile } from '../ingest/run.js';
import { MARKET_DEMO } from '../market/load/index.js';
import { LOADERS } from '../runtime/loaders.js';

const ASSETS = fileURLToPath(new URL('../../assets/', import.meta.url));

/** The datasets in the registry's order, each after those it names in `demo.after`. */
function demoOrder(datasets: readonly DatasetDescriptor[]): DatasetDescriptor[] {
  const ordered: DatasetDescriptor[] = [];
  const seen = new Set<string>();
  const visit = (dataset: DatasetDescriptor) => {
    if (seen.has(dataset.id)) return;
    seen.add(dataset.id);
    for (const id of dataset.demo?.after ?? []) {
      const first = DATASET_BY_ID.get(id);
      if (!first) throw new Error(`dataset ${dataset.id}'s demo comes after ${id}, which is not a dataset`);
      visit(first);
    }
    ordered.push(dataset);
  };
  for (const dataset of datasets) visit(dataset);
  return ordered;
}

/** Each bundled file as a path, a folder (a path ending in `/`) read as its files in name order. */
function expand([source, file, options]: DemoFile): DemoFile[] {
  if (!file.endsWith('/')) return [[source, path.join(ASSETS, file), options]];
  return readdirSync(path.join(ASSETS, file))
    .sort()
    .map((name) => [source, path.join(ASSETS, file, name), options]);
}

/** In load order, with absolute paths. */
export function bundledFiles(): DemoFile[] {
  return [...demoOrder(DATASETS).flatMap((d) => d.demo?.files ?? []), ...MARKET_DEMO].flatMap(expand);
}

/** What a load of the bundle read: its records, and how long it took (s, to a tenth). */
export interface BundleLoaded {
  records: number;
  seconds: number;
}

/** Loads the bundle; says when it starts, and answers what it loaded (its caller says it, once it is served). */
export async function loadBundledData(
  deps: LoadDeps,
  say: (line: string) => void,
  /** Told before each file: how many are done, of how many, and the next. */
  progress: (done: number, of: number, next: string) => void = () => {},
  /** Told after each file: what it loaded. */
  loaded: (report: LoadReport) => void = () => {},
): Promise<BundleLoaded> {
  const files = bundledFiles();
  say(`Loading the bundled agency data (${files.length} files)…`);
  const started = performance.now();
  let rows = 0;
  for (const [index, [name, file, options]] of files.entries()) {
    const loader = LOADERS[name];
    if (!loader) throw new Error(`no loader ${name}`);
    progress(index, files.length, `${name} ${path.basename(file)}`);
    const report = await loadFile(deps, loader, file, { ...options });
    loaded(report);
    rows += report.lines;
  }
  return { records: rows, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** The line that says the bundle is in. */
export const bundleLoadedLine = ({ records, seconds }: BundleLoaded) =>
  `Loaded ${records} records in ${seconds.toFixed(1)} s.`;
