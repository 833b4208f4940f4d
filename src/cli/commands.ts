// The quarry command's work, once main.ts has chosen a command: each command imports its own modules, so a
// command that reads the store does not load the server, the market upstreams or the payment processor.
import type { Config } from '../kernel/config.js';
import type { Deps } from '../kernel/deps.js';
import { loadConfig } from '../runtime/config.js';
import { printResult } from './output.js';
import { UsageError } from './usage-error.js';

type Result = { report: object; failed: boolean };

/** A command whose report is its whole answer: it fails only by throwing. */
const reporting =
  (run: (deps: Deps, argv: string[]) => Promise<object>) =>
  async (deps: Deps, argv: string[]): Promise<Result> => ({ report: await run(deps, argv), failed: false });

/** The commands that print one JSON object from the store: their module, run on a store opened for them. */
const STORE_COMMANDS: Record<string, (deps: Deps, argv: string[]) => Promise<Result>> = {
  accounts: reporting(async (deps, argv) => (await import('./accounts.js')).accountsCommand(deps, argv)),
  keys: reporting(async (deps, argv) => (await import('./keys.js')).keysCommand(deps, argv)),
  import: reporting(async (deps, argv) => (await import('./import.js')).importCommand(deps, argv)),
  export: reporting(async (deps, argv) => (await import('./export.js')).exportCommand(deps, argv)),
  status: reporting(async (deps, argv) => (await import('./status.js')).statusCommand(deps, argv)),
  usage: reporting(async (deps, argv) => (await import('./usage.js')).usageCommand(deps, argv)),
  backup: reporting(async (deps, argv) => (await import('./backup.js')).backupCommand(deps, argv)),
  // A sync or a load that failed for one file still reports the others, and exits 1.
  sync: async (deps, argv) => (await import('./sync.js')).syncCommand(deps, argv),
  ingest: async (deps, argv) => (await import('./ingest.js')).ingestCommand(deps, argv),
};

/** Runs a command; the exit status, or -1 for a server that runs until it is stopped. */
export async function runCommand(command: string, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const config = loadConfig(env);
  if (command === 'serve') {
    const deps = await openDeps(config, true);
    await (await import('./serve.js')).serveCommand(config, deps, argv);
    return -1;
  }
  if (command === 'migrate') {
    const { openStore } = await import('../store/engine.js');
    const { migrate } = await import('../store/migrate.js');
    const { MIGRATIONS } = await import('../runtime/migrations.js');
    const store = openStore(config);
    try {
      printResult({ applied: await migrate(store, MIGRATIONS) });
    } finally {
      await store.close();
    }
    return 0;
  }
  const run = STORE_COMMANDS[command];
  if (command !== 'collect' && command !== 'mcp' && !run)
    throw new UsageError(`unknown command "${command}"`);
  // `quarry mcp` speaks its protocol on stdout: nothing else is printed there.
  const deps = await openDeps(config, command === 'mcp', command !== 'mcp');
  try {
    if (command === 'collect') await (await import('./collect.js')).collectCommand(deps);
    else if (command === 'mcp') await (await import('./mcp.js')).mcpCommand(config, deps);
    else if (run) {
      const { report, failed } = await run(deps, argv);
      printResult(report);
      return failed ? 1 : 0;
    }
    return 0;
  } finally {
    await deps.close();
  }
}

/**
 * The store, counters and providers; with `logUpstream`, failed market upstream calls are logged to stderr;
 * with `storedMarketOnly`, a command that serves no market data loads none of its upstreams.
 */
async function openDeps(config: Config, logUpstream: boolean, storedMarketOnly = false): Promise<Deps> {
  const { createDeps } = await import('../runtime/deps.js');
  if (!logUpstream) return createDeps(config, { storedMarketOnly });
  const { default: pino } = await import('pino');
  const log = pino({ level: config.logLevel }, pino.destination(2));
  return createDeps(config, {
    onUpstreamError: (what: string, error: unknown) =>
      log.warn({ what, error: (error as Error)?.message ?? String(error) }, 'market upstream call failed'),
  });
}
