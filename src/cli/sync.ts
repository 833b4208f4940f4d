// quarry sync SOURCE: fetch the agency's current files and load those that changed.
import { COLLECTIONS } from '../datasets/registry.js';
import { collect } from '../ingest/collect.js';
import type { Deps } from '../kernel/deps.js';
import { parse } from './args.js';
import { UsageError } from './output.js';

export async function syncCommand(deps: Deps, argv: string[]): Promise<{ report: object; failed: boolean }> {
  const { args } = parse(argv, {}, ['SOURCE']);
  const source = args.SOURCE as string;
  const found = COLLECTIONS.get(source);
  if (!found) throw new UsageError(`sync takes a source: ${[...COLLECTIONS.keys()].join(', ')}`);
  const report = await collect(deps, source, found.collection, found.loaders);
  // A file the agency does not publish, or cannot serve now, is reported; only a load that failed fails the run.
  return { report, failed: report.files.some((f) => f.outcome === 'failed') };
}
