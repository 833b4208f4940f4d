#!/usr/bin/env node
// The quarry command: serve, mcp, migrate, and the admin commands for accounts, keys and loads.
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { AGENCY_HOSTS, COLLECTIONS } from '../datasets/registry.js';
import { loadConfig } from '../runtime/config.js';
import { createDeps } from '../runtime/deps.js';
import { LOADERS } from '../runtime/loaders.js';
import { MIGRATIONS } from '../runtime/migrations.js';
import { openStore } from '../store/engine.js';
import { migrate } from '../store/migrate.js';
import { accountsCommand } from './accounts.js';
import { collectCommand } from './collect.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { ingestCommand } from './ingest.js';
import { keysCommand } from './keys.js';
import { mcpCommand } from './mcp.js';
import { explain, printResult, UsageError } from './output.js';
import { serveCommand } from './serve.js';
import { statusCommand } from './status.js';
import { syncCommand } from './sync.js';
import { usageCommand } from './usage.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const HELP = `quarry — financial and economic data over HTTP

  quarry serve [--demo] [--collect] run the HTTP server (--demo: demo account and keys on an empty store;
                                    --collect: also fetch the agencies' files on their release calendars)
  quarry collect                    fetch the agencies' files on their release calendars, without the server
  quarry mcp                        the MCP server over stdio for the key in QUARRY_API_KEY
  quarry migrate                    bring the store's schema up to date
  quarry accounts create --email EMAIL [--plan none|basic|desk|enterprise] [--market-plan free|paid] [--confirmed]
  quarry accounts confirm-email ID
  quarry accounts set-plan ID none|basic|desk|enterprise [--ends-at TIME]
  quarry accounts set-contract ID [--credits-per-month N] [--credits-per-minute N] [--max-keys N]
  quarry accounts set-market-plan ID free|paid
  quarry accounts set-balance ID N
  quarry accounts set-admin ID [--off]  make the account an operator in the console (--off: no longer)
  quarry accounts sign-out ID       end every console session of the account
  quarry accounts show ID
  quarry accounts list [--email TEXT]   accounts oldest first; --email: addresses containing TEXT
  quarry usage ID [--since YYYY-MM-DD]  credits and market-data units by day (default: this period and the last)
  quarry keys create ID --api datasets|market|news [--access market-data|full]
  quarry keys revoke KEY_ID
  quarry keys list ID
  quarry import DATASET FILE        load newline-delimited JSON records (docs/interchange.md)
  quarry ingest SOURCE FILE...      load the sources' own files: ${Object.keys(LOADERS).join(', ')}
  quarry sync SOURCE                fetch an agency's current files and load what changed: ${[...COLLECTIONS.keys()].join(', ')}
  quarry sync sec [--tickers T,...]  a watch list's EDGAR filings (default QUARRY_SEC_TICKERS), paced to 10/s
  quarry sync usaspending [--agency A]... [--recipient R]... [--from D] [--to D]   prime contracts from USAspending
  quarry export DATASET --out FILE [--format csv|ndjson|parquet] [--as-of YYYY-MM-DD]
                                    the dataset's bulk file (current, or as known at the end of that day)
  quarry status                     what the store holds of each dataset, and how its collection stands

Configuration comes from the environment: PORT, HOST, QUARRY_DATA_DIR, DATABASE_URL, REDIS_URL,
DATA_API_ENABLED, TRUST_PROXY, LOG_LEVEL, QUARRY_MCP_RESULT_BYTES, QUARRY_API_KEY, QUARRY_CONTACT,
${AGENCY_HOSTS.map((h) => h.variable).join(', ')}, QUARRY_SEC_URL, QUARRY_SEC_TICKERS,
QUARRY_FETCH_TIMEOUT_MS
(see the README).
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return command === undefined ? 1 : 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // Help for a command only ever prints: `quarry migrate --help` migrates nothing.
  if (rest.includes('--help') || rest.includes('-h')) {
    const lines = HELP.split('\n').filter((line) => line.startsWith(`  quarry ${command}`));
    if (lines.length === 0) throw new UsageError(`unknown command "${command}"`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  const config = loadConfig(process.env);
  // Failed market upstream calls are logged (to stderr: `quarry mcp` speaks its protocol on stdout).
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const upstreamLog = {
    onUpstreamError: (what: string, error: unknown) =>
      log.warn({ what, error: (error as Error)?.message ?? String(error) }, 'market upstream call failed'),
  };
  if (command === 'serve') {
    const deps = await createDeps(config, upstreamLog);
    await serveCommand(config, deps, rest);
    return -1;
  }
  if (command === 'collect') {
    const deps = await createDeps(config);
    try {
      await collectCommand(deps);
    } finally {
      await deps.close();
    }
    return 0;
  }
  if (command === 'mcp') {
    // stdout carries the protocol: nothing else is printed there.
    const deps = await createDeps(config, upstreamLog);
    try {
      await mcpCommand(config, deps);
    } finally {
      await deps.close();
    }
    return 0;
  }
  if (command === 'migrate') {
    const store = openStore(config);
    try {
      printResult({ applied: await migrate(store, MIGRATIONS) });
    } finally {
      await store.close();
    }
    return 0;
  }
  const deps = await createDeps(config);
  try {
    switch (command) {
      case 'accounts':
        printResult(await accountsCommand(deps, rest));
        break;
      case 'keys':
        printResult(await keysCommand(deps, rest));
        break;
      case 'import':
        printResult(await importCommand(deps, rest));
        break;
      case 'export':
        printResult(await exportCommand(deps, rest));
        break;
      case 'status':
        printResult(await statusCommand(deps, rest));
        break;
      case 'usage':
        printResult(await usageCommand(deps, rest));
        break;
      case 'sync': {
        const { report, failed } = await syncCommand(deps, rest);
        printResult(report);
        return failed ? 1 : 0;
      }
      case 'ingest': {
        const { report, failed } = await ingestCommand(deps, rest);
        printResult(report);
        return failed ? 1 : 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
    return 0;
  } finally {
    await deps.close();
  }
}

let settled = false;
// A command whose work can no longer make progress would let Node exit quietly with status 0; say so instead.
process.on('beforeExit', () => {
  if (!settled && process.exitCode === undefined) {
    process.stderr.write('quarry: stopped before the command finished (nothing left to wait for)\n');
    process.exitCode = 1;
  }
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    settled = true;
    process.stderr.write(`${explain(error)}\n`);
    process.exitCode = 1;
  },
);
