#!/usr/bin/env node
// The quarry command's binary: runs the command (quarry.ts) and exits with its status.
import { quarry } from './quarry.js';

let settled = false;
// A command whose work can no longer make progress would let Node exit quietly with status 0; say so instead.
process.on('beforeExit', () => {
  if (!settled && process.exitCode === undefined) {
    process.stderr.write('quarry: stopped before the command finished (nothing left to wait for)\n');
    process.exitCode = 1;
  }
});

quarry(process.argv.slice(2), process.env).then((code) => {
  settled = true;
  if (code >= 0) process.exitCode = code;
});
