// A PostgreSQL cluster and a Redis server of a benchmark's own: PostgreSQL made by initdb in a temporary folder
// and run as the postgres user, Redis keeping nothing on disk, each on its own port and started through
// `launch` (a CPU group's, or as it is). Both are stopped and the folder removed by `stop`.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const asIs = (command, args) => [command, args];

/** Resolves once `probe` succeeds, polling; rejects after `seconds`. */
async function until(what, probe, seconds = 30) {
  for (let i = 0; i < seconds * 10; i += 1) {
    try {
      probe();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${what} did not start within ${seconds} s`);
}

export async function startPostgres(port, launch = asIs) {
  const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  const folder = mkdtempSync(path.join(tmpdir(), 'quarry-bench-pg-'));
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  chownSync(folder, id('-u'), id('-g'));
  const data = path.join(folder, 'data');
  execFileSync(
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      path.join(bin, 'initdb'),
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ],
    {
      stdio: 'ignore',
    },
  );
  const [command, args] = launch('runuser', [
    '-u',
    'postgres',
    '--',
    path.join(bin, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    folder,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
    // Which statements the calls cost it: read by the benchmark after its rounds.
    '-c',
    'shared_preload_libraries=pg_stat_statements',
  ]);
  const child = spawn(command, args, { stdio: 'ignore' });
  await until('PostgreSQL', () =>
    execFileSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' }),
  );
  const psql = (database, command) =>
    execFileSync(
      'psql',
      ['-qAt', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-c', command],
      { encoding: 'utf8' },
    );
  psql('postgres', 'CREATE DATABASE quarry');
  psql('quarry', 'CREATE EXTENSION pg_stat_statements');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/quarry`,
    /** Runs `command` in the quarry database; its rows as text, `|`-separated. */
    query: (command) => psql('quarry', command),
    async stop() {
      try {
        execFileSync(
          'runuser',
          ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', 'stop'],
          {
            stdio: 'ignore',
          },
        );
      } finally {
        child.kill();
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

export async function startRedis(port, launch = asIs) {
  const [command, args] = launch('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  const child = spawn(command, args, { stdio: 'ignore' });
  await until('Redis', () => execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' }));
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill();
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    },
  };
}
