// The bulk downloads: GET /v1/datasets/{dataset}/bulk for each dataset (keyed, call type bulk), and the signed
// links the MCP tool datasets.bulk_link hands out (no key: the link was paid for). Both read a stored file of
// one version: streamed, with its length, ETag and byte ranges; CSV and NDJSON as their gzip copy where the
// caller accepts gzip.
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { describeBulk } from '../../datasets/bulk/describe.js';
import {
  type BulkFile,
  bulkDownload,
  bulkPrice,
  linkedFile,
  releaseClaim,
  settleClaim,
} from '../../datasets/bulk/download.js';
import { FORMATS } from '../../datasets/bulk/produce.js';
import { P } from '../../datasets/params.js';
import { DATASETS } from '../../datasets/registry.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';
import { acceptedEncodings } from '../compress.js';
import { membersOf } from '../context.js';
import { etagMatches, KEYED_STATUSES, responses } from '../responses.js';

/** Reads of 1 MB: a file is sent in fewer, larger writes than the 64 KB default. */
const READ_CHUNK = 1 << 20;

const CONTENT_TYPES = ['text/csv', 'application/x-ndjson', 'application/vnd.apache.parquet'];

const BulkQuerystring = Type.Object(
  {
    format: Type.Optional(Type.Enum([...FORMATS], { description: 'csv (default), ndjson or parquet.' })),
    asOf: Type.Optional(P.asOf),
  },
  { additionalProperties: false },
);

export function registerBulkRoutes(app: FastifyInstance, deps: Deps): void {
  for (const dataset of DATASETS) {
    const { id, bulk: layout } = dataset;
    const queryOf = (query: Record<string, unknown>) => ({
      format: (query.format as (typeof FORMATS)[number] | undefined) ?? 'csv',
      ...(typeof query.asOf === 'string' ? { asOf: query.asOf } : {}),
    });
    app.get(`/v1/datasets/${id}/bulk`, {
      schema: { querystring: BulkQuerystring, response: errorResponses(...KEYED_STATUSES, 416) },
      config: {
        meta: {
          doc: 'datasets',
          operationId: `${id}.bulk`,
          summary: `The whole ${id} dataset in one file`,
          description: describeBulk(dataset),
          tags: [id],
          key: 'datasets',
          datasetsApi: true,
          strictQuery: true,
          files: CONTENT_TYPES,
          dataset: id,
          price: (query, principal) => bulkPrice(deps, principal.account.id, id, queryOf(query)),
          refused: (query, principal) => releaseClaim(deps, principal.account.id, id, queryOf(query)),
          // A future asOf, and a range outside the file, are refused before the file is charged.
          refine: async ({ query, headers }) => {
            const file = await bulkDownload(deps, id, layout, queryOf(query), accepts(headers));
            checkRange(headers, file);
          },
        },
      },
      handler: async (request, reply) => {
        const query = queryOf(membersOf(request.query));
        const { metered } = request.meter;
        try {
          const file = await bulkDownload(deps, id, layout, query, accepts(request.headers));
          const range = checkRange(request.headers, file);
          // The call that claimed the file was charged for it: from now on the file is the account's for a day.
          if (metered?.receipt) await settleClaim(deps, metered.principal.account.id, file);
          return sendFile(request, reply, file, range);
        } catch (error) {
          if (metered?.receipt) await releaseClaim(deps, metered.principal.account.id, id, query);
          throw error;
        }
      },
    });
  }
  app.get('/v1/bulk-links/:token', {
    schema: {
      params: Type.Object(
        {
          token: Type.String({
            minLength: 1,
            maxLength: 1024,
            description: 'The link datasets.bulk_link gave.',
          }),
        },
        { additionalProperties: false },
      ),
      response: errorResponses(400, 404, 410, 416),
    },
    config: {
      meta: {
        doc: 'datasets',
        operationId: 'bulk.link',
        summary: 'A bulk file through a signed link',
        description:
          'Downloads the file a datasets.bulk_link call paid for, without a key, until the link expires (410 ' +
          'link_expired after). Range, ETag and gzip as on the bulk routes; not charged again.',
        tags: ['bulk'],
        datasetsApi: true,
        files: CONTENT_TYPES,
      },
    },
    handler: async (request, reply) => {
      const { token } = request.params as { token: string };
      return sendFile(request, reply, await linkedFile(deps, token, accepts(request.headers)));
    },
  });
}

function errorResponses(...statuses: number[]) {
  const declared = responses(Type.Null(), ...statuses);
  delete declared[200];
  return declared;
}

const accepts = (headers: FastifyRequest['headers']) =>
  acceptedEncodings(headers['accept-encoding']).has('gzip');

/** The byte range a Range header asks for within `size` bytes: null for the whole file, 'outside' past its end. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'outside' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file, as a server may answer any Range it does not serve.
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1] ?? '', match[2] ?? ''];
  // A last byte before the first is no valid range (RFC 9110, 14.1.1): ignored, so the whole file is sent.
  if (first !== '' && last !== '' && Number(first) > Number(last)) return null;
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start > end || start >= size ? 'outside' : { start, end };
}

/** The bytes a request asks for (null: the whole file), or 'outside' for a range outside it. */
function rangeAsked(headers: FastifyRequest['headers'], file: BulkFile) {
  const ifRange = headers['if-range'];
  return ifRange === undefined || ifRange === file.etag ? byteRange(headers.range, file.bytes) : null;
}

/** The bytes a request asks for (null: the whole file); 416 range_not_satisfiable for a range outside it. */
function checkRange(
  headers: FastifyRequest['headers'],
  file: BulkFile,
): { start: number; end: number } | null {
  const range = rangeAsked(headers, file);
  if (range !== 'outside') return range;
  throw new AppError(
    'range_not_satisfiable',
    `The file has ${file.bytes} bytes; the Range asked for lies outside it.`,
    null,
    { 'content-range': `bytes */${file.bytes}` },
  );
}

function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: BulkFile,
  range: { start: number; end: number } | null = checkRange(request.headers, file),
) {
  const { manifest } = file;
  const name = `${manifest.dataset}-v${manifest.version}${manifest.asOf ? `-asof-${manifest.asOf}` : ''}.${file.format}`;
  reply.headers({
    etag: file.etag,
    'accept-ranges': 'bytes',
    'content-disposition': `attachment; filename="${name}${file.gzip ? '.gz' : ''}"`,
    'last-modified': new Date(manifest.producedAt).toUTCString(),
    'x-bulk-version': String(manifest.version),
    'x-bulk-rows': String(manifest.rows),
    vary: 'accept-encoding',
  });
  if (etagMatches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  reply.type(file.contentType);
  // A gzip copy is sent as the stored gzip file: its bytes are what a Range counts.
  if (file.gzip) reply.header('content-encoding', 'gzip');
  if (!range) {
    reply.header('content-length', String(file.bytes));
    return reply.code(200).send(createReadStream(file.path, { highWaterMark: READ_CHUNK }));
  }
  reply.header('content-range', `bytes ${range.start}-${range.end}/${file.bytes}`);
  reply.header('content-length', String(range.end - range.start + 1));
  return reply.code(206).send(createReadStream(file.path, { ...range, highWaterMark: READ_CHUNK }));
}
