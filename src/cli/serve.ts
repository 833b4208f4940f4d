// quarry serve [--demo] [--collect]: the HTTP server (with --demo, the bundled data loading once it listens),
// with WAL checkpoints of the embedded store on a worker thread, and with --collect the collector of the
// agencies' files.
// Stops cleanly on SIGINT/SIGTERM, flushing buffered usage.
import { Worker } from 'node:worker_threads';
import { createAccount } from '../accounts/accounts.js';
import { createKey } from '../accounts/keys.js';
import { buildApp } from '../http/build.js';
import { forget } from '../ingest/read-cache.js';
import type { Config } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import { markLoading } from '../runtime/health.js';
import { Checkpointer } from '../store/checkpointer.js';
import { sqlitePath } from '../store/engine.js';
import { parse } from './args.js';
import type { BundleMessage } from './bundle-worker.js';
import { bundleLoadedLine } from './bundled.js';
import type { CollectorMessage } from './collector-worker.js';

/** How long a stopping server waits for the requests in flight. */
const SHUTDOWN_MS = 10_000;

export async function serveCommand(config: Config, deps: Deps, argv: string[]): Promise<void> {
  const { values } = parse(argv, { demo: { type: 'boolean' }, collect: { type: 'boolean' } }, []);
  const bundle = values.demo ? await prepareDemo(deps) : false;
  // The bundle loads once the server listens: /readyz says what is still loading until it is in.
  if (bundle) markLoading(deps.store, 'loading the bundled data');
  const app = await buildApp(config, deps);
  const { store } = deps;
  const checkpoints =
    store.engine === 'sqlite'
      ? Checkpointer.start(store.sqlite, sqlitePath(config.dataDir), (message) =>
          app.log.warn({ message }, 'background WAL checkpoint failed'),
        )
      : null;

  // The collector and the demo's load run on threads and store connections of their own (docs/adr/036).
  const collector = values.collect
    ? collectOnThread(config, (event) => app.log.info(event, 'collector'))
    : null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    // No new connections; requests in flight may finish, for at most SHUTDOWN_MS.
    const timer = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_MS).unref());
    await Promise.race([app.close(), timer]);
    // A collection in progress finishes its file (one transaction) or is taken up again after its lease.
    await Promise.race([collector?.stop(), timer]);
    await checkpoints?.stop();
    await deps.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const address = await app.listen({ port: config.port, host: config.host });
  process.stdout.write(`quarry listening at ${address}\n`);
  process.stdout.write(
    `account console at ${address}/console; its mail goes to the ${deps.mailer.describe}\n`,
  );
  collector?.start();
  if (bundle) void loadBundle(config, deps, (message, error) => app.log.error({ err: error }, message));
  if (!config.dataApiEnabled) app.log.warn('DATA_API_ENABLED is off: stored-datasets routes answer 503');
}

/**
 * On a store without accounts: a demo account (plan desk, market plan paid) with one key of each kind, shown
 * once. True when the bundled data is to be loaded: only into an empty store, never mixed into data an operator
 * loaded.
 */
async function prepareDemo(deps: Deps): Promise<boolean> {
  const db = deps.store.db;
  const anyAccount = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (anyAccount) return false;
  const loaded = await db.selectFrom('dataset_versions').select('dataset').limit(1).executeTakeFirst();
  if (loaded) process.stderr.write('The store holds data already: the bundled data is not loaded.\n');
  const account = await createAccount(deps, {
    email: 'demo@quarry.invalid',
    plan: 'desk',
    marketPlan: 'paid',
    emailConfirmed: true,
  });
  const datasets = await createKey(deps, { accountId: account.id, api: 'datasets' });
  const market = await createKey(deps, { accountId: account.id, api: 'market', access: 'market-data' });
  process.stdout.write(
    [
      '',
      `Demo account ${account.id} (plan desk, market plan paid). These keys are shown once:`,
      `  datasets key     ${datasets.key}`,
      `  market-data key  ${market.key}`,
      '',
      '',
    ].join('\n'),
  );
  return !loaded;
}

/**
 * The collector on a thread of its own (collector-worker.ts): started once the server listens, stopped after its
 * running job (one file a transaction, or taken up again after its lease).
 */
function collectOnThread(config: Config, log: (event: Record<string, unknown>) => void) {
  let worker: Worker | null = null;
  return {
    start() {
      worker = new Worker(new URL('./collector-worker.js', import.meta.url), { workerData: { config } });
      worker.on('message', (message: CollectorMessage) => {
        if (message.kind === 'event') log(message.event);
      });
      worker.on('error', (error) => log({ event: 'collector_error', error: error.message }));
    },
    async stop() {
      const running = worker;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.postMessage('stop');
      await exited;
    },
  };
}

/**
 * The bundled files, loaded while the server answers, on a thread and a store connection of their own
 * (bundle-worker.ts); readiness names the file being loaded until the last.
 */
function loadBundle(
  config: Config,
  deps: Deps,
  failed: (message: string, error: unknown) => void,
): Promise<void> {
  const worker = new Worker(new URL('./bundle-worker.js', import.meta.url), {
    workerData: { databaseUrl: config.databaseUrl, dataDir: config.dataDir },
  });
  let ended = false;
  const fail = (message: string, error: unknown) => {
    ended = true;
    markLoading(deps.store, `the bundled data failed to load: ${message}`);
    failed('the bundled data failed to load', error);
  };
  worker.on('message', (message: BundleMessage) => {
    if (message.kind === 'progress')
      markLoading(
        deps.store,
        `loading the bundled data: ${message.done} of ${message.of} files in, now ${message.next}`,
      );
    // The serving connection's answers computed from a dataset before its file are dropped at once.
    else if (message.kind === 'loaded')
      for (const dataset of message.datasets) forget(deps.store.db, dataset);
    else if (message.kind === 'done') {
      ended = true;
      // Ready first: whoever reads the line finds the server ready.
      markLoading(deps.store, null);
      process.stderr.write(`${bundleLoadedLine(message)}\n`);
    } else fail(message.message, new Error(message.message));
  });
  worker.on('error', (error) => fail(error.message, error));
  return new Promise((resolve) =>
    worker.once('exit', (code) => {
      if (!ended) fail(`the loading thread stopped (exit code ${code})`, new Error(`exit ${code}`));
      resolve();
    }),
  );
}
