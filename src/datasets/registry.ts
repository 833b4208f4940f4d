// The datasets Quarry serves, in the catalog's order. A new dataset is its folder plus one line here.

import { loaderList, type SourceLoaders } from '../ingest/run.js';
import type { AgencyHost } from '../kernel/config.js';
import { awardsDataset } from './awards/index.js';
import { cotDataset } from './cot/index.js';
import { cpiDataset } from './cpi/index.js';
import type { DatasetDescriptor } from './descriptor.js';
import { energyDataset } from './energy/index.js';
import { eventsDataset } from './events/index.js';
import { execPayDataset } from './exec-pay/index.js';
import { kpisDataset } from './kpis/index.js';
import { ratesDataset } from './rates/index.js';

export const DATASETS: readonly DatasetDescriptor[] = [
  awardsDataset,
  kpisDataset,
  execPayDataset,
  eventsDataset,
  cpiDataset,
  energyDataset,
  cotDataset,
  ratesDataset,
];

export const DATASET_IDS = DATASETS.map((d) => d.id);
export const DATASET_BY_ID = new Map(DATASETS.map((d) => [d.id, d]));

/** Every keyed operation, dataset by dataset. */
export const OPERATIONS = DATASETS.flatMap((d) => d.operations);
export const OPERATION_BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));

/** quarry import DATASET: the importer of each dataset's interchange records. */
export const IMPORTERS = new Map(DATASETS.map((d) => [d.id, d.importer]));

/** quarry ingest SOURCE: the loaders of the sources' own files, by source name. */
export const DATASET_LOADERS = new Map<string, SourceLoaders>();
for (const d of DATASETS) {
  for (const [source, loaders] of Object.entries(d.loaders ?? {})) {
    const held = DATASET_LOADERS.get(source);
    DATASET_LOADERS.set(source, held ? [...loaderList(held), ...loaderList(loaders)] : loaders);
  }
}
for (const [source, loaders] of DATASET_LOADERS) {
  const list = loaderList(loaders);
  if (list.length > 1 && list.some((l) => !l.kind))
    throw new Error(`source ${source} has several loaders: each must name the kind of file it reads`);
}

/** quarry sync SOURCE: what each source's agency publishes, with the loader that reads it. */
export const COLLECTIONS = new Map(
  DATASETS.flatMap((d) =>
    Object.entries(d.collections ?? {}).map(([source, collection]) => {
      const loaders = DATASET_LOADERS.get(source);
      if (!loaders) throw new Error(`dataset ${d.id} collects ${source} but has no loader for it`);
      return [source, { collection, loaders }] as const;
    }),
  ),
);

/** Every agency host a dataset fetches from, once each: the configuration reads their addresses. */
export const AGENCY_HOSTS: readonly AgencyHost[] = [
  ...new Map(
    DATASETS.flatMap((d) => [
      ...Object.values(d.collections ?? {}).map((c) => c.agency),
      ...(d.hosts ?? []),
    ]).map((host) => [host.id, host]),
  ).values(),
];
