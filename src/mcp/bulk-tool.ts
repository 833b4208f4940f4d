// datasets.bulk_link: a whole dataset's bulk file for an agent, as a signed download link (the file itself
// would not fit a model's context). Charged the bulk price; the link downloads without a key and is not
// charged again, until it expires (QUARRY_BULK_LINK_SECONDS).
import { Type } from 'typebox';
import { price } from '../accounts/pricing.js';
import { bulkDownload, signLink } from '../datasets/bulk/download.js';
import { FORMATS } from '../datasets/bulk/produce.js';
import { P } from '../datasets/params.js';
import { DATASET_BY_ID, DATASET_IDS } from '../datasets/registry.js';
import { serviceUrl } from '../kernel/config.js';
import { AppError } from '../kernel/errors.js';
import { Timestamp } from '../kernel/schema.js';
import { csvLine, type Layout } from './pages.js';
import { tool } from './tool.js';

const Input = Type.Object(
  {
    dataset: Type.Enum([...DATASET_IDS], { description: 'The dataset.' }),
    format: Type.Optional(Type.Enum([...FORMATS], { description: 'csv (default), ndjson or parquet.' })),
    asOf: Type.Optional(P.asOf),
  },
  { additionalProperties: false },
);

const BulkLink = Type.Object({
  url: Type.String({ description: 'GET it without a key, before expiresAt.' }),
  expiresAt: Timestamp,
  dataset: Type.String(),
  format: Type.String(),
  version: Type.Integer(),
  asOf: Type.Union([Type.String(), Type.Null()]),
  rows: Type.Integer(),
  bytes: Type.Integer({
    description: 'Of the file without gzip (the link also serves gzip where accepted).',
  }),
});

const Output = Type.Object({ data: BulkLink, meta: Type.Object({ dataset: Type.String() }) });

type Answer = { data: Record<string, unknown>; meta: { dataset: string } };

const linkLayout: Layout<Answer> = {
  list: (body) => [body.data],
  withList: (body) => body,
  preamble: (body) => `bulk file of dataset ${body.meta.dataset}\n${csvLine(Object.keys(body.data))}`,
  head: () => '',
  line: (element) => csvLine(Object.values(element)),
};

export const BULK_LINK_TOOL = tool({
  api: 'datasets',
  name: 'datasets.bulk_link',
  title: 'A signed link to a whole dataset in one file',
  description:
    'Every record of a dataset (current, or as known at the end of asOf) in one CSV, NDJSON or Parquet file, as ' +
    'a link that downloads it without a key until expiresAt. Costs 25 credits (bulk); the download is not ' +
    'charged again. The columns are those of GET /v1/datasets/{dataset}/bulk (see the API description).',
  input: Input,
  output: Output,
  layout: linkLayout as Layout,
  credits: { operation: 'datasets.bulk_link', price: () => price('bulk', 1) },
  run: async (deps, args) => {
    const dataset = DATASET_BY_ID.get(args.dataset);
    if (!dataset) throw new AppError('invalid_params', `no dataset "${args.dataset}"`);
    const format = args.format ?? 'csv';
    const file = await bulkDownload(
      deps,
      dataset.id,
      dataset.bulk,
      { format, ...(args.asOf ? { asOf: args.asOf } : {}) },
      false,
    );
    const { token, expiresAt } = signLink(deps, file);
    const { version, asOf, rows } = file.manifest;
    return {
      data: {
        url: `${serviceUrl(deps.config)}/v1/bulk-links/${token}`,
        expiresAt,
        dataset: dataset.id,
        format,
        version,
        asOf,
        rows,
        bytes: file.bytes,
      },
      meta: { dataset: dataset.id },
    };
  },
});
