// The bulk files (call type bulk) on the CFTC's weekly files, both engines: every row of the CSV, NDJSON and
// Parquet files (Parquet read back by an independent reader, hyparquet) equals the record the change feed
// serves for the same version; the CFTC's own figures in them; a new version after a correcting load and
// the old one as known at a past day; 25 credits, nothing for a resume within a day, 402 without a plan; Range,
// ETag and gzip; signed links.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endPlan, getAccount, setBalance } from '../../../src/accounts/accounts.js';
import { bulkDownload, signLink } from '../../../src/datasets/bulk/download.js';
import { cotBulk } from '../../../src/datasets/cot/bulk.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { APRIL_14, correctedWeekly } from '../../helpers/cftc.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';
import { real } from '../../helpers/real-data.js';

const APRIL_21 = real('cftc/weekly/deafut_2026-04-21.zip');
const NOW = new Date('2026-11-25T12:00:00Z');
const DAY = 86_400_000;

type Row = Record<string, unknown>;

/** RFC 4180 CSV as rows of text fields (null for an empty unquoted field), read here, not by the writer's code. */
function parseCsv(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',' || ch === '\n') {
      row.push(field === '' && !wasQuoted ? null : field);
      field = '';
      wasQuoted = false;
      if (ch === '\n') {
        rows.push(row);
        row = [];
      }
    } else field += ch;
  }
  return rows;
}

const cftc = () => LOADERS.cftc as NonNullable<typeof LOADERS.cftc>;

describe('bulk files', () => {
  const copy = correctedWeekly();
  afterAll(() => copy.remove());

  for (const { engine, skip } of ENGINES) {
    describe.skipIf(skip)(`on ${engine}`, () => {
      let env: TestEnv;
      let user: Customer;
      let now = NOW;
      beforeAll(async () => {
        env = await testEnv({ engine, clock: () => now });
        user = await customer(env.deps);
        await loadFile(env.deps, cftc(), APRIL_14);
        await loadFile(env.deps, cftc(), APRIL_21);
      });
      afterAll(() => env.close());

      const get = (url: string, headers: Record<string, string> = {}, key = user.key) =>
        env.app.inject({ method: 'GET', url, headers: { ...bearer(key), ...headers } });
      /** The records the change feed serves now, the current revision of each, by key. */
      const served = async () => {
        const byKey = new Map<string, Row>();
        let since = '';
        for (;;) {
          const res = await get(`/v1/datasets/cot/changes?limit=1000${since}`);
          const { changes, nextCursor } = res.json().data;
          if (changes.length === 0) return byKey;
          for (const c of changes)
            byKey.set(`${c.key.reportFamily}|${c.key.contractCode}|${c.key.reportDate}`, {
              ...c.record,
              revision: c.revision,
              knownAt: c.knownAt,
            });
          since = `&since=${nextCursor}`;
        }
      };
      const keyOf = (r: Row) => `${r.reportFamily}|${r.contractCode}|${r.reportDate}`;
      /** A file row as the record it flattens: the positions of each class of its family. */
      const expectMatches = (row: Row, record: Row) => {
        expect(row.openInterest).toBe(record.openInterest);
        expect(row.marketName).toBe(record.marketName);
        expect(row.revision).toBe(record.revision);
        expect(row.knownAt).toBe(record.knownAt);
        const positions = record.positions as Record<
          string,
          { long: number; short: number; spreading: number | null }
        >;
        for (const [traderClass, p] of Object.entries(positions)) {
          const name = traderClass.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
          expect([row[`${name}Long`], row[`${name}Short`], row[`${name}Spreading`]]).toEqual([
            p.long,
            p.short,
            p.spreading,
          ]);
        }
      };

      it('the catalog says where the file is and what it costs before any download, and its sizes once made', async () => {
        const entry = async () =>
          (await env.app.inject({ url: '/v1/datasets' }))
            .json()
            .datasets.find((d: { id: string }) => d.id === 'cot').bulk;
        const before = await entry();
        expect(before).toMatchObject({
          url: '/v1/datasets/cot/bulk',
          credits: 25,
          formats: ['csv', 'ndjson', 'parquet'],
          made: false,
          rows: null,
          sizes: null,
        });
        const res = await get('/v1/datasets/cot/bulk?format=ndjson');
        const after = await entry();
        expect(after).toMatchObject({ made: true, version: before.version });
        expect(String(after.rows)).toBe(res.headers['x-bulk-rows']);
        expect(after.sizes.ndjson.bytes).toBe(Number(res.headers['content-length']));
      });

      it('CSV: a header of the layout, then one row per record, each the record the routes serve', async () => {
        const res = await get('/v1/datasets/cot/bulk?format=csv');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/csv/);
        expect(res.headers['x-credits-cost']).toBe('25');
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        const [header, ...lines] = parseCsv(res.body);
        expect(header).toEqual(cotBulk.columns.map((c) => c.name));
        const records = await served();
        expect(lines).toHaveLength(records.size);
        for (const line of lines) {
          const row = Object.fromEntries(header!.map((name, i) => [name, line[i]]));
          const numbers = Object.fromEntries(
            Object.entries(row).map(([k, v]) => [
              k,
              v !== null && /^(openInterest|revision|.*(Long|Short|Spreading))$/.test(k) ? Number(v) : v,
            ]),
          );
          expectMatches(numbers, records.get(keyOf(row))!);
        }
        // WTI of 14 April, as the CFTC published it: open interest 2,094,492, non-commercial long 390,468.
        const wti = lines.find((l) => l[1] === '067651' && l[2] === '2026-04-14')!;
        expect(wti[header!.indexOf('openInterest')]).toBe('2094492');
        expect(wti[header!.indexOf('noncommercialLong')]).toBe('390468');
        expect(wti[header!.indexOf('producerLong')]).toBeNull();
      });

      it('NDJSON, and Parquet read back by an independent reader: the same rows, typed', async () => {
        const records = await served();
        const ndjson = await get('/v1/datasets/cot/bulk?format=ndjson');
        const lines = ndjson.body
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Row);
        expect(lines).toHaveLength(records.size);
        for (const row of lines) expectMatches(row, records.get(keyOf(row))!);

        const parquet = await get('/v1/datasets/cot/bulk?format=parquet');
        expect(parquet.headers['content-type']).toBe('application/vnd.apache.parquet');
        const bytes = parquet.rawPayload;
        const file = new Uint8Array(bytes).buffer;
        const rows = (await parquetReadObjects({ file, compressors })) as Row[];
        expect(rows).toHaveLength(records.size);
        for (const row of rows) {
          const asServed = {
            ...row,
            reportDate: (row.reportDate as Date).toISOString().slice(0, 10),
            knownAt: (row.knownAt as Date).toISOString(),
            ...Object.fromEntries(
              Object.entries(row)
                .filter(([, v]) => typeof v === 'bigint')
                .map(([k, v]) => [k, Number(v)]),
            ),
          };
          expectMatches(asServed, records.get(keyOf(asServed))!);
        }
        const types = Object.fromEntries(
          parquetMetadata(file)
            .schema.slice(1)
            .map((s) => [s.name, s.converted_type ?? s.type]),
        );
        expect(types).toMatchObject({
          reportDate: 'DATE',
          openInterest: 'INT_64',
          knownAt: 'TIMESTAMP_MICROS',
          marketName: 'UTF8',
        });
      });

      it('gzip where accepted, and a Range resumes the same stored bytes', async () => {
        const plain = await get('/v1/datasets/cot/bulk?format=csv');
        const gz = await get('/v1/datasets/cot/bulk?format=csv', { 'accept-encoding': 'gzip' });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
        expect(gz.headers.etag).not.toBe(plain.headers.etag);
        const size = gz.rawPayload.length;
        const tail = await get('/v1/datasets/cot/bulk?format=csv', {
          'accept-encoding': 'gzip',
          range: 'bytes=1000-',
        });
        expect(tail.statusCode).toBe(206);
        expect(tail.headers['content-range']).toBe(`bytes 1000-${size - 1}/${size}`);
        expect(Buffer.concat([gz.rawPayload.subarray(0, 1000), tail.rawPayload]).equals(gz.rawPayload)).toBe(
          true,
        );
        const outside = await get('/v1/datasets/cot/bulk?format=csv', {
          range: `bytes=${plain.rawPayload.length}-`,
        });
        expect(outside.statusCode).toBe(416);
        expect(outside.json()).toMatchObject({ error: 'range_not_satisfiable' });
        expect(outside.headers['content-range']).toBe(`bytes */${plain.rawPayload.length}`);
        const same = await get('/v1/datasets/cot/bulk?format=csv', {
          'if-none-match': plain.headers.etag as string,
        });
        expect(same.statusCode).toBe(304);
      });

      it('a Range outside the file is 416 and costs nothing, and the file is not paid for by it', async () => {
        const other = await customer(env.deps);
        const outside = await get(
          '/v1/datasets/cot/bulk?format=ndjson',
          { range: 'bytes=999999999-' },
          other.key,
        );
        expect([outside.statusCode, outside.headers['x-credits-cost']]).toEqual([416, '0']);
        // The first whole download is still the one that pays.
        const first = await get('/v1/datasets/cot/bulk?format=ndjson', {}, other.key);
        expect([first.statusCode, first.headers['x-credits-cost']]).toEqual([200, '25']);
      });

      it('a Range whose last byte comes before its first is ignored: 200 and the whole file', async () => {
        const whole = await get('/v1/datasets/cot/bulk?format=csv');
        const reversed = await get('/v1/datasets/cot/bulk?format=csv', { range: 'bytes=10-5' });
        expect(reversed.statusCode).toBe(200);
        expect(reversed.headers['content-range']).toBeUndefined();
        expect(reversed.rawPayload.equals(whole.rawPayload)).toBe(true);
      });

      it('25 credits once: the same file again within a day is free, after it charged again; 402 without a plan', async () => {
        const other = await customer(env.deps);
        const first = await get('/v1/datasets/cot/bulk?format=ndjson', {}, other.key);
        expect(first.headers['x-credits-cost']).toBe('25');
        const resumed = await get('/v1/datasets/cot/bulk?format=ndjson', { range: 'bytes=10-' }, other.key);
        expect([resumed.statusCode, resumed.headers['x-credits-cost']]).toEqual([206, '0']);
        expect((await get('/v1/datasets/cot/bulk?format=csv', {}, other.key)).headers['x-credits-cost']).toBe(
          '25',
        );
        now = new Date(NOW.getTime() + DAY + 1000);
        try {
          expect(
            (await get('/v1/datasets/cot/bulk?format=ndjson', {}, other.key)).headers['x-credits-cost'],
          ).toBe('25');
        } finally {
          now = NOW;
        }
        const planless = await customer(env.deps);
        await endPlan(env.deps, { accountId: planless.accountId, at: new Date(NOW.getTime() - DAY) });
        const refused = await get('/v1/datasets/cot/bulk', {}, planless.key);
        expect([refused.statusCode, refused.json().error]).toEqual([402, 'plan_required']);
        const bad = await get('/v1/datasets/cot/bulk?format=xlsx');
        expect([bad.statusCode, bad.json().error]).toEqual([400, 'invalid_params']);
        // A day after today: refused before anything is charged.
        const future = await get('/v1/datasets/cot/bulk?asOf=2026-11-26', {}, other.key);
        expect([future.statusCode, future.json().error, future.headers['x-credits-cost']]).toEqual([
          400,
          'invalid_params',
          '0',
        ]);
      });

      it('twenty downloads of one file at once from a new account: 25 credits in all, every one served', async () => {
        const other = await customer(env.deps);
        const before = await getAccount(env.deps.store.db, other.accountId);
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => get('/v1/datasets/cot/bulk?format=csv', {}, other.key)),
        );
        expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
        const costs = answers.map((a) => Number(a.headers['x-credits-cost']));
        expect(costs.filter((c) => c === 25)).toHaveLength(1);
        expect(costs.reduce((a, b) => a + b, 0)).toBe(25);
        const after = await getAccount(env.deps.store.db, other.accountId);
        expect(before.balance - after.balance).toBe(25);
      });

      it('twenty downloads at once on a balance of exactly 25: one is charged, every one is served', async () => {
        const other = await customer(env.deps);
        await setBalance(env.deps, { accountId: other.accountId, balance: 25 });
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => get('/v1/datasets/cot/bulk?format=ndjson', {}, other.key)),
        );
        expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
        expect(answers.map((a) => Number(a.headers['x-credits-cost'])).sort((a, b) => b - a)).toEqual([
          25,
          ...Array(19).fill(0),
        ]);
        expect((await getAccount(env.deps.store.db, other.accountId)).balance).toBe(0);
      });

      it('a Range outside the file on a balance under 25 is 416, not 402, and costs nothing', async () => {
        const other = await customer(env.deps);
        await setBalance(env.deps, { accountId: other.accountId, balance: 24 });
        const outside = await get(
          '/v1/datasets/cot/bulk?format=csv',
          { range: 'bytes=999999999-' },
          other.key,
        );
        expect([outside.statusCode, outside.json().error, outside.headers['x-credits-cost']]).toEqual([
          416,
          'range_not_satisfiable',
          '0',
        ]);
        expect(outside.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
        // A charge refused for the balance gives its claim up: the file stays unpaid, so it is not free after.
        const refused = await get('/v1/datasets/cot/bulk?format=csv', {}, other.key);
        expect([refused.statusCode, refused.json().error]).toEqual([402, 'insufficient_credits']);
        await setBalance(env.deps, { accountId: other.accountId, balance: 30 });
        const paid = await get('/v1/datasets/cot/bulk?format=csv', {}, other.key);
        expect([paid.statusCode, paid.headers['x-credits-cost']]).toEqual([200, '25']);
      });

      it('a correcting load makes a new version; asOf a day before it reads the version before', async () => {
        const before = await get('/v1/datasets/cot/bulk?format=ndjson');
        now = new Date(NOW.getTime() + DAY);
        try {
          await loadFile(env.deps, cftc(), copy.file);
          const after = await get('/v1/datasets/cot/bulk?format=ndjson');
          expect(Number(after.headers['x-bulk-version'])).toBe(Number(before.headers['x-bulk-version']) + 1);
          const wti = (body: string) =>
            body
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as Row)
              .find((r) => r.contractCode === '067651' && r.reportDate === '2026-04-14')!;
          expect([wti(after.body).noncommercialLong, wti(after.body).revision]).toEqual([391468, 2]);
          const known = await get('/v1/datasets/cot/bulk?format=ndjson&asOf=2026-11-25');
          expect([wti(known.body).noncommercialLong, wti(known.body).revision]).toEqual([390468, 1]);
          expect(known.headers.etag).toContain('2026-11-25');
        } finally {
          now = NOW;
        }
      });

      it('a signed link downloads the paid file without a key until it expires', async () => {
        const file = await bulkDownload(env.deps, 'cot', cotBulk, { format: 'csv' }, false);
        const { token } = signLink(env.deps, file);
        const res = await env.app.inject({ method: 'GET', url: `/v1/bulk-links/${token}` });
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(readFileSync(file.path, 'utf8'));
        now = new Date(NOW.getTime() + env.config.bulkLinkSeconds * 1000 + 1);
        try {
          const late = await env.app.inject({ method: 'GET', url: `/v1/bulk-links/${token}` });
          expect([late.statusCode, late.json().error]).toEqual([410, 'link_expired']);
        } finally {
          now = NOW;
        }
        const forged = await env.app.inject({
          method: 'GET',
          url: `/v1/bulk-links/${token.slice(0, -3)}AAA`,
        });
        expect(forged.statusCode).toBe(400);
      });
    });
  }
});
