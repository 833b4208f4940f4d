// Starts a node script in its own process and resolves with its port once a stdout line matches `pattern`
// (whose first group is the port); rejects if the process exits first.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export function start(args, env, pattern) {
  const child = spawn(process.execPath, args, {
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
