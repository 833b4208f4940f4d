// The collector of `quarry serve --collect`, on a thread of its own with its own store connection and counters
// (docs/adr/036): the agencies' files it fetches, parses and loads never hold the serving thread. It tells the
// serving thread its events, to be logged there, and stops when asked, once the job running is done.
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../kernel/config.js';
import { createCollector } from '../runtime/collector.js';
import { createDeps } from '../runtime/deps.js';

/** What the collecting thread tells the serving one. */
export type CollectorMessage = { kind: 'event'; event: Record<string, unknown> } | { kind: 'stopped' };

const { config } = workerData as { config: Config };
const tell = (message: CollectorMessage) => parentPort?.postMessage(message);
const deps = await createDeps(config, { storedMarketOnly: true });
const collector = createCollector(deps, (event) => tell({ kind: 'event', event }));
parentPort?.once('message', async () => {
  await collector.stop();
  await deps.close();
  tell({ kind: 'stopped' });
  parentPort?.close();
});
collector.start();
