// Real server processes from the built CLI, for the tests about processes: scale-out and crashes.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import { NO_AGENCIES } from './agency.js';

export interface ServerProcess {
  url: string;
  /** Lines the process printed on stdout before it listened (the demo's keys among them). */
  printed: string[];
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in what the process wrote on stderr, now or later. */
  onStderr(pattern: RegExp): Promise<RegExpExecArray>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** libfaketime's path, when installed: it stands a server process at a fixed instant. */
export const faketimeLib = () => inject('faketime');

/**
 * The environment that stands a child process's clock still at `at` (UTC), through libfaketime; timers keep
 * real time. Processes started with it agree on the time to the millisecond, whatever the machine's clock.
 */
export function frozenAt(at: Date): Record<string, string> {
  const lib = faketimeLib();
  if (!lib) throw new Error('libfaketime is not installed (apt-get install faketime)');
  const stamp = at.toISOString().replace('T', ' ').slice(0, 19);
  return {
    LD_PRELOAD: lib,
    FAKETIME: stamp,
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
    FAKETIME_DONT_RESET: '1',
    TZ: 'UTC',
  };
}

/**
 * The environment that starts a child process's clock at `at` (UTC) and lets it run on from there, through
 * libfaketime: the test knows the instant the process reads, and the process's timers and leases keep time.
 */
export function startingAt(at: Date): Record<string, string> {
  return { ...frozenAt(at), FAKETIME: `@${at.toISOString().replace('T', ' ').slice(0, 19)}` };
}

/**
 * A child process's clock that the test moves: libfaketime reads the instant from a file at every call, and
 * `move` writes a later one. The clock stands still between moves; timers keep real time.
 */
export function movableClock(at: Date): { env: Record<string, string>; move(ms: number): void } {
  const lib = faketimeLib();
  if (!lib) throw new Error('libfaketime is not installed (apt-get install faketime)');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-clock-')), 'now');
  let now = at.getTime();
  const write = () => writeFileSync(file, new Date(now).toISOString().replace('T', ' ').slice(0, 19));
  write();
  return {
    env: {
      LD_PRELOAD: lib,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      FAKETIME_DONT_RESET: '1',
      TZ: 'UTC',
    },
    move(ms: number) {
      now += ms;
      write();
    },
  };
}

/** `startWithinMs`: how long the process may take to listen (the demo loads its bundle first). */
export async function startServer(
  env: Record<string, string>,
  args: string[] = [],
  startWithinMs = 20_000,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve', ...args], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...NO_AGENCIES, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const printed: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), startWithinMs);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      printed.push(line);
      const match = /quarry listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    url,
    printed,
    child,
    onStderr(pattern) {
      return new Promise((resolve, reject) => {
        const seen = () => {
          const match = pattern.exec(stderr);
          if (!match) return false;
          child.stderr?.off('data', look);
          child.off('exit', ended);
          resolve(match);
          return true;
        };
        const look = () => void seen();
        const ended = () => reject(new Error(`the process ended without writing ${pattern}: ${stderr}`));
        if (seen()) return;
        // Registered after the helper's own listener: the text is in `stderr` when this one runs.
        child.stderr?.on('data', look);
        child.once('exit', ended);
      });
    },
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
  };
}
