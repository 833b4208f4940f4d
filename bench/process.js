// Starts a node script in its own process (through `launch`, which may wrap the command, e.g. into a CPU group)
// and resolves with its port once a stdout line matches `pattern` (whose first group is the port); rejects if
// the process exits first.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export function start(args, env, pattern, launch = (command, rest) => [command, rest]) {
  const [command, rest] = launch(process.execPath, args);
  const child = spawn(command, rest, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = pattern.exec(line);
      if (match) resolve({ child, port: Number(match[1]) });
    });
  });
}

/** Ends a process started by `start` (SIGTERM: a server shuts down cleanly) and resolves once it has exited. */
export function stop({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/** Starts the built server with `env`; resolves once it listens. */
export function startQuarry(env) {
  return start(['dist/cli/main.js', 'serve'], env, /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/);
}

/**
 * A datasets key of an enterprise account with credits and a rate far past any run, so that a benchmark
 * measures the path, not the limits.
 */
export async function unlimitedDatasetsKey(deps) {
  const { createAccount, setContract } = await import('../dist/accounts/accounts.js');
  const { createKey } = await import('../dist/accounts/keys.js');
  const account = await createAccount(deps, {
    email: 'bench@example.com',
    plan: 'enterprise',
    emailConfirmed: true,
  });
  await setContract(deps, {
    accountId: account.id,
    change: { creditsPerMonth: 1_000_000_000, creditsPerMinute: 1_000_000_000 },
  });
  return (await createKey(deps, { accountId: account.id, api: 'datasets' })).key;
}

/**
 * `count` market keys of paid accounts (20 a account) on the store `env` names: a benchmark spreads its calls
 * over them so that it measures the path, not the per-minute units.
 */
export async function marketKeys(env, count) {
  const { loadConfig } = await import('../dist/runtime/config.js');
  const { createDeps } = await import('../dist/runtime/deps.js');
  const { createAccount } = await import('../dist/accounts/accounts.js');
  const { createKey } = await import('../dist/accounts/keys.js');
  const deps = await createDeps(loadConfig(env));
  const keys = [];
  try {
    for (let a = 0; keys.length < count; a += 1) {
      const account = await createAccount(deps, {
        email: `bench-keys-${process.pid}-${a}-${Date.now()}@example.com`,
        marketPlan: 'paid',
        emailConfirmed: true,
      });
      for (let k = 0; k < 20 && keys.length < count; k += 1)
        keys.push((await createKey(deps, { accountId: account.id, api: 'market' })).key);
    }
  } finally {
    await deps.close();
  }
  return keys;
}

/**
 * A new, empty database on the PostgreSQL server `serverUrl` names (its URL), and `drop` to remove it (its
 * connections ended first).
 */
export async function freshDatabase(serverUrl, name) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
