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
