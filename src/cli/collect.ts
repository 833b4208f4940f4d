// quarry collect: the collector alone, without the HTTP server: runs each source on its release calendar
// until SIGTERM or SIGINT. Events are JSON lines on stdout. Any number of instances may run on PostgreSQL;
// a lease in the store makes exactly one run a given job.
import type { Deps } from '../kernel/deps.js';
import { createCollector } from '../runtime/collector.js';

export async function collectCommand(deps: Deps): Promise<void> {
  const collector = createCollector(deps, (event) =>
    process.stdout.write(`${JSON.stringify({ time: deps.clock().toISOString(), ...event })}\n`),
  );
  collector.start();
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await collector.stop();
}
