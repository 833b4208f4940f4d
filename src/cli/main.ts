#!/usr/bin/env node
// The quarry command. The version and the help are answered from here alone; any other command loads what
// it needs once it is chosen (commands.ts), so that a command starts in the time its own modules take.
import { readFileSync } from 'node:fs';
import { commandHelp, HELP } from './help.js';

const HELP_FLAGS = ['--help', '-h'];

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || HELP_FLAGS.includes(command)) {
    process.stdout.write(HELP);
    return command === undefined ? 1 : 0;
  }
  if (command === '--version' || command === '-v') {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${(pkg as { version: string }).version}\n`);
    return 0;
  }
  // Help for a command only ever prints: `quarry migrate --help` migrates nothing.
  if (rest.some((arg) => HELP_FLAGS.includes(arg))) {
    process.stdout.write(await commandHelp(command));
    return 0;
  }
  const { runCommand } = await import('./commands.js');
  return runCommand(command, rest);
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
  async (error: unknown) => {
    const { explain } = await import('./output.js');
    settled = true;
    process.stderr.write(`${explain(error)}\n`);
    process.exitCode = 1;
  },
);
