// quarry backup FOLDER: a consistent copy of the embedded store, made while servers answer and loads run.
import type { Deps } from '../kernel/deps.js';
import { backupStore } from '../store/backup.js';
import { parse } from './args.js';

export async function backupCommand(deps: Deps, argv: string[]): Promise<object> {
  const { args } = parse(argv, {}, ['FOLDER']);
  return backupStore(deps.store, args.FOLDER);
}
