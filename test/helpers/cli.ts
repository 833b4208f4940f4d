// The quarry command run in-process, for the tests of what a command does (the tests of the installed binary
// start it as a process): the same function the binary runs, its output on stdout and stderr captured.
import { quarry } from '../../src/cli/quarry.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** Runs `quarry ARGS` with this environment; one command at a time (the process's streams are borrowed). */
export async function runQuarry(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const into =
    (chunks: string[]): Write =>
    (chunk: unknown, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  const { stdout, stderr } = process;
  const [writeOut, writeErr] = [stdout.write, stderr.write];
  stdout.write = into(out);
  stderr.write = into(err);
  try {
    const code = await quarry(args, env);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.write = writeOut;
    stderr.write = writeErr;
  }
}
