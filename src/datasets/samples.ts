// The sample route's fixtures: static, synthetic, in each dataset's data shape, declared by each descriptor.
import { Type } from 'typebox';
import type { DatasetDescriptor } from './descriptor.js';
import type { EnvelopeValue, MetaValue } from './envelope.js';
import { DATASETS } from './registry.js';

export const SampleData = Type.Union(DATASETS.map((d) => d.sample.schema));

const NOTE = 'Synthetic sample: invented rows in the dataset’s shape, not real data.';

function meta({ id, sources, disclaimer }: DatasetDescriptor): MetaValue {
  return {
    dataset: id,
    asOf: null,
    knownFrom: null,
    readAsOf: null,
    newestPeriod: null,
    source: [...sources],
    historyStarts: null,
    coverage: null,
    lastUpdated: null,
    sample: true,
    note: NOTE,
    ...(disclaimer ? { disclaimer } : {}),
  };
}

export const SAMPLES: Record<string, EnvelopeValue<unknown>> = Object.fromEntries(
  DATASETS.map((d) => [d.id, { data: d.sample.data, meta: meta(d) }]),
);
