// The catalog of the seven datasets (spec: Catalog entry).
import { Type } from 'typebox';
import { PAID_PLANS } from '../accounts/plans.js';
import type { DatasetId } from './operation.js';
import { OPERATIONS } from './operations.js';

export const DATASETS: { id: DatasetId; name: string }[] = [
  { id: 'awards', name: 'Government awards' },
  { id: 'kpis-guidance', name: 'Company KPIs and guidance' },
  { id: 'exec-pay', name: 'Executive compensation' },
  { id: 'events', name: '8-K events' },
  { id: 'cpi', name: 'Consumer price index components' },
  { id: 'energy-inventories', name: 'Energy inventories' },
  { id: 'cot', name: 'Commitments of Traders' },
];

export const DATASET_IDS = DATASETS.map((d) => d.id);

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
    datasets: DATASETS.map(({ id, name }) => ({
      id,
      name,
      status: 'live',
      class: 'sellable',
      classLabel: 'Sellable dataset',
      creditCost: Math.min(...OPERATIONS.filter((op) => op.dataset === id).map((op) => op.price({}).credits)),
      plans: [...PAID_PLANS],
    })),
  };
}
