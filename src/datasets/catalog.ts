// The catalog of the datasets (spec: Catalog entry), from the registry.
import { Type } from 'typebox';
import { PAID_PLANS } from '../accounts/plans.js';
import { DATASETS } from './registry.js';

export const CatalogEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String({ description: 'live' }),
  class: Type.String({ description: 'sellable' }),
  classLabel: Type.String(),
  creditCost: Type.Integer({ description: 'Starting credit cost: the cheapest call of the dataset.' }),
  plans: Type.Array(Type.String()),
});

export const Catalog = Type.Object({ datasets: Type.Array(CatalogEntry) });

/** Each dataset's cheapest call, from the prices of its routes with no parameters. */
export function catalog() {
  return {
    datasets: DATASETS.map(({ id, name, operations }) => ({
      id,
      name,
      status: 'live',
      class: 'sellable',
      classLabel: 'Sellable dataset',
      creditCost: Math.min(...operations.map((op) => op.price({}).credits)),
      plans: [...PAID_PLANS],
    })),
  };
}
