// The words that document a dataset's bulk files: the route's description in the API document, with its
// layout column by column.
import type { DatasetDescriptor } from '../descriptor.js';

export function describeBulk(dataset: Pick<DatasetDescriptor, 'id' | 'bulk'>): string {
  const { columns, key } = dataset.bulk;
  const rows = columns.map(
    (c) => `| ${c.name} | ${c.type}${c.nullable ? ', nullable' : ''} | ${c.description} |`,
  );
  return [
    `Every record of ${dataset.id} (current, or as known at the end of asOf), one row each, in one file: CSV, ` +
      'NDJSON or Parquet. A file is made once per version of the dataset (a load that changes it makes a new ' +
      'version) and read as stored: Content-Length, an ETag naming the version, Range for resuming, and CSV and ' +
      'NDJSON as gzip where Accept-Encoding takes it. Costs 25 credits (bulk); the same file again within 24 ' +
      'hours of the charged download (a resumed one) costs nothing.',
    `Each row is one record, named by ${key.join(', ')}. Money is exact: a decimal string in CSV and NDJSON, ` +
      'DECIMAL(18,4) in Parquet; json columns are JSON text in CSV and Parquet. In the CSV (RFC 4180) text is ' +
      'always quoted: an empty field is a null, "" an empty string; numbers, dates and instants are bare.',
    '',
    '| column | type | meaning |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}
