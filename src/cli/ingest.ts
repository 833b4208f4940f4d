// quarry ingest SOURCE FILE…: load agency files; each file in its own transaction.

import { produceAfterLoads } from '../datasets/bulk/after-load.js';
import { loadFile, sourceOptions } from '../ingest/run.js';
import type { Deps } from '../kernel/deps.js';
import { LOADERS } from '../runtime/loaders.js';
import { explain, say, UsageError } from './output.js';

export async function ingestCommand(
  deps: Deps,
  argv: string[],
): Promise<{ report: object; failed: boolean }> {
  const [sourceName, ...rest] = argv;
  const loader = sourceName ? LOADERS[sourceName] : undefined;
  if (!loader)
    throw new UsageError(`ingest takes a source (${Object.keys(LOADERS).join(', ')}) and one or more files`);
  const known = sourceOptions(loader);
  const options: Record<string, string> = {};
  const files: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (!(name in known))
      throw new UsageError(
        `${sourceName} takes no option ${arg} (it takes ${Object.keys(known)
          .map((o) => `--${o}`)
          .join(', ')})`,
      );
    const value = rest[i + 1];
    if (!value || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
    options[name] = value;
    i += 1;
  }
  if (files.length === 0) throw new UsageError(`ingest ${sourceName} needs at least one file`);
  // Each file is its own transaction: one that fails keeps nothing of itself and does not undo the others.
  const loaded = [];
  const failed = [];
  for (const file of files) {
    try {
      const companions = files.filter((other) => other !== file);
      loaded.push(await loadFile(deps, loader, file, options, companions));
    } catch (error) {
      const message = explain(error);
      say(message);
      failed.push({ file, error: message.replace(/^quarry: /, '') });
    }
  }
  await produceAfterLoads(deps, loaded);
  return {
    report: { source: sourceName, files: loaded, ...(failed.length ? { failed } : {}) },
    failed: failed.length > 0,
  };
}
