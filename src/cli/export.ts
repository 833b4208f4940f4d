// quarry export DATASET [--format csv|ndjson|parquet] [--as-of YYYY-MM-DD] --out FILE: the bulk file a download
// of the same version would read, copied for an operator (no key, no credits).
import { copyFile } from 'node:fs/promises';
import { bulkDownload } from '../datasets/bulk/download.js';
import { FORMATS } from '../datasets/bulk/produce.js';
import { DATASET_BY_ID, DATASET_IDS } from '../datasets/registry.js';
import type { Deps } from '../kernel/deps.js';
import { oneOf, parse } from './args.js';
import { UsageError } from './output.js';

export async function exportCommand(deps: Deps, argv: string[]): Promise<object> {
  const { values, args } = parse(
    argv,
    { format: { type: 'string' }, 'as-of': { type: 'string' }, out: { type: 'string' } },
    ['DATASET'],
  );
  const dataset = DATASET_BY_ID.get(oneOf(args.DATASET ?? '', DATASET_IDS, 'DATASET'));
  if (!dataset) throw new UsageError(`no dataset "${args.DATASET}"`);
  const out = values.out;
  if (!out) throw new UsageError('export needs --out FILE');
  const format = oneOf(values.format ?? 'csv', FORMATS, '--format');
  const asOf = values['as-of'];
  if (asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(asOf))
    throw new UsageError(`--as-of must be YYYY-MM-DD, got "${asOf}"`);
  const file = await bulkDownload(
    deps,
    dataset.id,
    dataset.bulk,
    { format, ...(asOf ? { asOf } : {}) },
    false,
  );
  await copyFile(file.path, out);
  const { version, rows, producedAt } = file.manifest;
  return {
    dataset: dataset.id,
    format,
    asOf: asOf ?? null,
    version,
    rows,
    bytes: file.bytes,
    producedAt,
    out,
  };
}
