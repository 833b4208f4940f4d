// Every source `quarry ingest` reads: the datasets' agency files and the market sources' files.
import { DATASET_LOADERS } from '../datasets/registry.js';
import type { SourceLoaders } from '../ingest/run.js';
import { MARKET_LOADERS } from '../market/load/index.js';

export const LOADERS: Record<string, SourceLoaders> = {
  ...Object.fromEntries(DATASET_LOADERS),
  ...MARKET_LOADERS,
};
