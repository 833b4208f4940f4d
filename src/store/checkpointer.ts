// WAL checkpoints of the embedded store, taken by a worker thread on its own connection, so that copying
// pages back into the database file and syncing it never holds up the event loop. Taken on the serving
// connection, a checkpoint made about one commit in a hundred last 4–11 ms instead of 0.5 ms, and every
// request in flight waited for it (docs/adr/004).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { accountsPath } from './engine.js';

const EVERY_MS = 200;
/** The serving connection still checkpoints once the WAL holds this many pages (the worker fell behind). */
const BACKSTOP_PAGES = 10_000;

// The worker's code, plain CommonJS: a passive checkpoint on a timer (it never waits for or blocks writers
// and readers); a busy file is left for the next turn, any other failure is reported to the parent.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// Both files of the store: a checkpoint named for no schema checkpoints every attached one.
db.prepare('ATTACH DATABASE ? AS accounts_file').run(workerData.accounts);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    if (error.code !== 'SQLITE_BUSY') parentPort.postMessage(String(error.message));
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  private readonly exited: Promise<unknown>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise((resolve) => worker.once('exit', resolve));
  }

  /** Starts checkpointing `file`, whose serving connection is `sqlite`; failures go to `onError`. */
  static start(sqlite: SQLite.Database, file: string, onError: (message: string) => void): Checkpointer {
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(SCRIPT, {
      eval: true,
      workerData: { driver, file, accounts: accountsPath(file), everyMs: EVERY_MS },
    });
    worker.on('message', (message) => onError(String(message)));
    worker.on('error', (error) => onError(error.message));
    worker.unref();
    return new Checkpointer(worker);
  }

  /** Stops the timer and closes the worker's connection. */
  async stop(): Promise<void> {
    // Unreferenced, the worker would not keep the process alive while it is awaited here.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
