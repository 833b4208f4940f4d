// The quarry command as a function of its arguments and environment: main.ts runs it for the installed
// binary, and the tests of the commands' behaviour call it in-process. The version and the help are answered
// from here alone; any other command loads what it needs once it is chosen (commands.ts).
import { readFileSync } from 'node:fs';
import { commandHelp, HELP } from './help.js';

const HELP_FLAGS = ['--help', '-h'];

/**
 * Runs one command; its exit status, or -1 for a server that runs until it is stopped. Output goes to
 * process.stdout (the command's one JSON object) and process.stderr (messages); an error is explained there
 * on one line and the status is 1.
 */
export async function quarry(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    return await run(argv, env);
  } catch (error) {
    const { explain } = await import('./output.js');
    process.stderr.write(`${explain(error, argv)}\n`);
    return 1;
  }
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
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
    // `quarry ingest SOURCE --help`: that source alone.
    const topic = rest.find((arg) => !arg.startsWith('-'));
    process.stdout.write(await commandHelp(command, topic));
    return 0;
  }
  const { runCommand } = await import('./commands.js');
  return runCommand(command, rest, env);
}
