// Everything about one dataset, declared in its folder's index.ts: the registry collects these, and the
// catalog, the routes, the cost estimate, the samples, the importers and the loaders all read them.
import type { TSchema } from 'typebox';
import type { Collection } from '../ingest/collect.js';
import type { FreshnessSource } from '../ingest/freshness.js';
import type { Importer } from '../ingest/import.js';
import type { DemoFile, SourceLoaders } from '../ingest/run.js';
import type { AgencyHost } from '../kernel/config.js';
import type { Migrations } from '../store/migrate.js';
import type { BulkLayout } from './bulk/layout.js';
import type { DatasetOperation } from './operation.js';

export interface Source {
  id: string;
  attribution: string;
  licence: string;
}

export interface DatasetDescriptor {
  /** Dataset id, as the catalog and meta.dataset name it (e.g. energy-inventories). */
  id: string;
  name: string;
  /** Its keyed operations, in the order the API description lists them. */
  operations: readonly DatasetOperation[];
  /** The flat layout of its bulk files (one row per record). */
  bulk: BulkLayout;
  /** Reads the dataset's interchange records (quarry import). */
  importer: Importer<never>;
  /**
   * The sources' own files it loads, by the name quarry ingest takes (quarry ingest cftc …). Where several
   * datasets (or several kinds of file) share a source, each loader names the kind of file it recognises.
   */
  loaders?: Record<string, SourceLoaders>;
  /** Where the agencies publish those files, by the same source name (quarry sync cftc …). */
  collections?: Record<string, Collection>;
  /** Hosts it fetches from other than its collections' agencies (each a configurable address). */
  hosts?: readonly AgencyHost[];
  /**
   * The real files bundled in assets/ that `quarry serve --demo` loads into an empty store, in load order, after
   * those of the datasets named in `after` (whose loads it reads: registrants, say). A path ending in `/` is
   * every file in that folder, in name order.
   */
  demo?: { files: readonly DemoFile[]; after?: readonly string[] };
  /**
   * The migrations of the tables only it uses (its tables.ts types them), in the order they run: a new one is
   * named `<dataset id>/<what it does>` and added last (those that landed with a number keep it).
   */
  migrations?: Migrations;
  /** What its freshness is judged from (the catalog's coverage, the boards' stale gaps). */
  freshness: FreshnessSource;
  sources: readonly Source[];
  /** On every response of the dataset, where a source asks for one. */
  disclaimer?: string;
  sample: { data: unknown; schema: TSchema };
}

export function describe(dataset: DatasetDescriptor): DatasetDescriptor {
  return dataset;
}
