// The catalog of the datasets (spec: Catalog entry), from the registry, with how fresh each one is.
import { Type } from 'typebox';
import { PAID_PLANS } from '../accounts/plans.js';
import { freshness } from '../ingest/freshness.js';
import type { Deps } from '../kernel/deps.js';
import { Nullable, Timestamp } from '../kernel/schema.js';
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
          'the dataset has no calendar or no data).',
      }),
    ),
    stale: Type.Boolean({
      description: 'Whether the agency has published a period the store does not hold.',
    }),
  },
  { title: 'Coverage' },
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
});

export const Catalog = Type.Object({ datasets: Type.Array(CatalogEntry) });

/** Each dataset's cheapest call, from the prices of its routes with no parameters, and its coverage now. */
export async function catalog(deps: Pick<Deps, 'store' | 'clock'>) {
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
      })),
    ),
  };
}
