// The demo's bundle, loaded on a thread of its own with a store connection of its own (docs/adr/036): the
// workbooks and JSON it parses and the statements it runs never hold the serving thread, whose requests go on
// being answered and charged meanwhile. It tells the serving thread the file it is at, each dataset it has
// changed (whose served answers are then dropped), and its end.
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../runtime/clock.js';
import { openStore } from '../store/engine.js';
import { type BundleLoaded, loadBundledData } from './bundled.js';

/** What the loading thread tells the serving one. */
export type BundleMessage =
  | { kind: 'progress'; done: number; of: number; next: string }
  | { kind: 'loaded'; datasets: string[] }
  | ({ kind: 'done' } & BundleLoaded)
  | { kind: 'failed'; message: string };

const { databaseUrl, dataDir } = workerData as { databaseUrl: string | null; dataDir: string };
const tell = (message: BundleMessage) => parentPort?.postMessage(message);
const store = openStore({ databaseUrl, dataDir, poolSize: 2 });
try {
  const loaded = await loadBundledData(
    { store, clock: systemClock },
    (line) => process.stderr.write(`${line}\n`),
    (done, of, next) => tell({ kind: 'progress', done, of, next }),
    (report) =>
      tell({ kind: 'loaded', datasets: [report.dataset, ...(report.also ?? []).map((a) => a.dataset)] }),
  );
  tell({ kind: 'done', ...loaded });
} catch (error) {
  tell({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
} finally {
  await store.close();
}
