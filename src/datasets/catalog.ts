// The catalog of the datasets (spec: Catalog entry), from the registry, with how fresh each one is.
import { Type } from 'typebox';
import { PAID_PLANS } from '../accounts/plans.js';
import { price } from '../accounts/pricing.js';
import { freshness } from '../ingest/freshness.js';
import type { Deps } from '../kernel/deps.js';
import { Nullable, Timestamp } from '../kernel/schema.js';
import { datasetVersion, versionFiles } from './bulk/files.js';
import { FORMATS } from './bulk/produce.js';
import { DATASETS } from './registry.js';

/** What the store holds of a dataset and how fresh it is, before any call is paid for. */
export const Coverage = Type.Object(
  {
    records: Type.Integer({ description: 'Current records (revisions not counted).' }),
    firstPeriod: Nullable(Type.String({ description: 'The oldest date the loaded files cover.' })),
    lastPeriod: Nullable(Type.String({ description: 'The newest date the loaded files cover.' })),
    lastLoad: Nullable(Type.Object({ file: Type.String(), loadedAt: Timestamp })),
    nextRelease: Nullable(
      Type.String({
        description:
          'ISO 8601 timestamp: when the agency publishes next, by its release calendar (a dataset of filings: ' +
          'when its collector next reads them); null where the calendar fixes no time (the BLS’s CPI).',
      }),
    ),
    nextReleaseBy: Type.Optional(
      Type.String({
        description:
          'ISO 8601 timestamp: where the calendar gives only the latest a publication comes (the BLS publishes ' +
          'the CPI on a day of its own schedule, by the 20th of the next month): that latest time.',
      }),
    ),
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

/**
 * The dataset's bulk file: where it is downloaded and at what price, always; its current version's sizes once
 * made (a load that changes the dataset makes them where collectors run, else the version's first download).
 */
export const BulkFiles = Type.Object(
  {
    url: Type.String({ description: 'GET it with format=csv, ndjson or parquet (and asOf for a past day).' }),
    credits: Type.Integer({
      description: 'What a download costs (the same file again within a day: nothing).',
    }),
    formats: Type.Array(Type.String(), { description: 'The formats offered.' }),
    version: Type.Integer({
      description: "The dataset's version: a load that changes it makes the next one.",
    }),
    made: Type.Boolean({ description: "Whether the current version's files are made (sizes known)." }),
    rows: Nullable(Type.Integer()),
    producedAt: Nullable(Timestamp),
    sizes: Nullable(Type.Object({ csv: FileSize, ndjson: FileSize, parquet: FileSize })),
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
  bulk: BulkFiles,
});

export const Catalog = Type.Object({ datasets: Type.Array(CatalogEntry) });

/** The dataset's bulk file: its address and price, and its current version's sizes where they are made. */
async function currentFiles(deps: Pick<Deps, 'store' | 'config'>, dataset: string) {
  const version = await datasetVersion(deps, dataset);
  const held = await versionFiles(deps, dataset, version, null);
  return {
    url: `/v1/datasets/${dataset}/bulk`,
    credits: price('bulk', 1).credits,
    formats: [...FORMATS],
    version,
    made: held !== null,
    rows: held?.manifest.rows ?? null,
    producedAt: held?.manifest.producedAt ?? null,
    sizes: held?.manifest.files ?? null,
  };
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
