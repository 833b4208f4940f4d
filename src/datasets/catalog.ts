// The catalog of the datasets (spec: Catalog entry), from the registry, with how fresh each one is.
import { Type } from 'typebox';
import { PAID_PLANS } from '../accounts/plans.js';
import { freshness } from '../ingest/freshness.js';
import type { Deps } from '../kernel/deps.js';
import { Nullable, Timestamp } from '../kernel/schema.js';
import { datasetVersion, versionFiles } from './bulk/files.js';
import { DATASETS } from './registry.js';

/** What the store holds of a dataset and how fresh it is, before any call is paid for. */
export const Coverage = Type.Object(
  {
    records: Type.Integer({ description: 'Current records (revisions not counted).' }),
    firstPeriod: Nullable(Type.String({ description: 'The oldest date the loaded files cover.' })),
    lastPeriod: Nullable(Type.String({ description: 'The newest date the loaded files cover.' })),
    lastLoad: Nullable(Type.Object({ file: Type.String(), loadedAt: Timestamp })),
    nextRelease: Nullable(Timestamp),
    releasesSince: Nullable(
      Type.Integer({
        description:
          'Periods after lastPeriod that the agency has published by now, by its release calendar (null where ' +
          'the dataset has no calendar or no data); of the group furthest behind where it has groups.',
      }),
    ),
    stale: Type.Boolean({
      description: 'Whether the agency has published a period the store does not hold.',
    }),
    groups: Type.Optional(
      Type.Array(
        Type.Object({
          group: Type.String({
            description: 'legacy or disaggregated (cot); petroleum or natural gas (energy).',
          }),
          lastPeriod: Nullable(Type.String()),
          releasesSince: Nullable(Type.Integer()),
          stale: Type.Boolean(),
        }),
        {
          description:
            'Datasets whose series are published apart: each group of series judged on its own calendar ' +
            '(releasesSince and stale above are those of the group furthest behind).',
        },
      ),
    ),
  },
  { title: 'Coverage' },
);

const FileSize = Type.Object({
  bytes: Type.Integer(),
  gzipBytes: Nullable(Type.Integer({ description: 'Of the gzip copy, sent where gzip is accepted.' })),
});

/** The current version's bulk files, once made (the first download of a version makes them if a load did not). */
export const BulkFiles = Type.Object(
  {
    version: Type.Integer({
      description: "The dataset's version: a load that changes it makes the next one.",
    }),
    rows: Type.Integer(),
    producedAt: Timestamp,
    formats: Type.Object({ csv: FileSize, ndjson: FileSize, parquet: FileSize }),
  },
  { title: 'BulkFiles' },
);

export const CatalogEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String({ description: 'live' }),
  class: Type.String({ description: 'sellable' }),
  classLabel: Type.String(),
  creditCost: Type.Integer({
    description:
      'Starting credit cost: the cheapest call of the dataset that reads it (the change feed aside).',
  }),
  plans: Type.Array(Type.String()),
  coverage: Coverage,
  bulk: Nullable(BulkFiles),
});

export const Catalog = Type.Object({ datasets: Type.Array(CatalogEntry) });

/** The bulk files of the dataset's current version, where they are made. */
async function currentFiles(deps: Pick<Deps, 'store' | 'config'>, dataset: string) {
  const held = await versionFiles(deps, dataset, await datasetVersion(deps, dataset), null);
  if (!held) return null;
  const { version, rows, producedAt, files } = held.manifest;
  return { version, rows, producedAt, formats: files };
}

/** Each dataset's cheapest call, from the prices of its routes with no parameters, and its coverage now. */
export async function catalog(deps: Pick<Deps, 'store' | 'clock' | 'config'>) {
  const now = deps.clock();
  return {
    datasets: await Promise.all(
      DATASETS.map(async ({ id, name, operations, freshness: source }) => ({
        id,
        name,
        status: 'live',
        class: 'sellable',
        classLabel: 'Sellable dataset',
        creditCost: Math.min(
          ...operations
            .map((op) => op.price({}))
            .filter((p) => p.callType !== 'change')
            .map((p) => p.credits),
        ),
        plans: [...PAID_PLANS],
        coverage: (await freshness(deps.store.db, source, now)).coverage,
        bulk: await currentFiles(deps, id),
      })),
    ),
  };
}
