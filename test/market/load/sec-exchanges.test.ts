// SEC's company_tickers_exchange.json (a copy of 2024-07-16, 10,266 listings): each US listing's exchange and
// CIK as EXCH_CODE and CIK in /v1/data, and /v1/search by CIK. Expectations are read from the file here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, ENGINES, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { real } from '../../helpers/real-data.js';

const FILE = real('sec/company_tickers_exchange_2024-07-16.zip');
const loader = LOADERS['sec-exchanges'] as NonNullable<(typeof LOADERS)['sec-exchanges']>;

/** The file's rows by ticker, read without the loader (unzip, then JSON). */
function rows(): Map<string, { cik: number; name: string; exchange: string | null }> {
  const text = execFileSync(
    'python3',
    [
      '-c',
      'import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);sys.stdout.write(z.read(z.namelist()[0]).decode())',
      FILE,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 10_000_000,
    },
  );
  const body = JSON.parse(text) as { fields: string[]; data: (string | number | null)[][] };
  const at = (name: string) => body.fields.indexOf(name);
  return new Map(
    body.data.map((r) => [
      String(r[at('ticker')]),
      {
        cik: Number(r[at('cik')]),
        name: String(r[at('name')]),
        exchange: r[at('exchange')] as string | null,
      },
    ]),
  );
}

describe("SEC's exchange file", () => {
  let env: TestEnv;
  let key: string;
  let report: Awaited<ReturnType<typeof loadFile>>;
  const source = rows();
  beforeAll(async () => {
    env = await testEnv();
    report = await loadFile(env.deps, loader, FILE);
    key = await marketKey(env.deps);
  });
  afterAll(() => env.close());
  const get = async (url: string) =>
    (await env.app.inject({ method: 'GET', url, headers: bearer(key) })).json();

  it('loads a fact record per listing', () => {
    expect(report.inserted).toBe(source.size);
    expect(source.size).toBe(10_266);
  });

  it('answers EXCH_CODE and CIK in every form of a US listing', async () => {
    const body = await get('/v1/data?tickers=AAPL,MSFT%20US%20Equity,GOOG&fields=EXCH_CODE,CIK');
    for (const [i, ticker] of ['AAPL', 'MSFT', 'GOOG'].entries()) {
      const row = source.get(ticker);
      expect(body.items[i].values).toEqual({
        EXCH_CODE: row?.exchange,
        CIK: String(row?.cik).padStart(10, '0'),
      });
    }
    expect(body.items[0].values).toEqual({ EXCH_CODE: 'Nasdaq', CIK: '0000320193' });
  });

  it('a listing SEC names no exchange for has its CIK, and EXCH_CODE not found', async () => {
    const [ticker, row] = [...source].find(([, r]) => r.exchange === null) as [string, { cik: number }];
    const body = await get(`/v1/data?tickers=${ticker}&fields=EXCH_CODE,CIK`);
    expect(body.items[0].status).toBe('partial');
    expect(body.items[0].values.CIK).toBe(String(row.cik).padStart(10, '0'));
    expect(body.items[0].errors.EXCH_CODE.code).toBe('not_found');
  });

  it('search finds the listings of a CIK, with any leading zeros', async () => {
    const alphabet = [...source]
      .filter(([, r]) => r.cik === 1652044)
      .map(([t]) => t)
      .sort();
    expect(alphabet).toEqual(['GOOG', 'GOOGL']);
    for (const q of ['1652044', '0001652044']) {
      const body = await get(`/v1/search?q=${q}`);
      const found = body.items.map(
        (i: { resolved?: { symbol: string }; symbol?: string }) => i.resolved?.symbol ?? i.symbol,
      );
      expect(found.sort()).toEqual(alphabet);
    }
  });

  it('refuses a file of another shape, naming it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sec-exchanges-'));
    const file = path.join(dir, 'company_tickers.json');
    writeFileSync(file, JSON.stringify({ 0: { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' } }));
    await expect(loadFile(env.deps, loader, file)).rejects.toThrow(/not company_tickers_exchange\.json/);
  });
});

/**
 * A later snapshot made from the file as SEC's next one differs from it: a listing gone (SEC no longer lists the
 * ticker), a listing whose exchange SEC now writes as null, and a ticker written with a trailing space.
 */
function laterSnapshot(): { file: string; gone: string; unlisted: string; padded: string } {
  const source = rows();
  const listed = [...source].filter(([, r]) => r.exchange !== null).map(([t]) => t);
  const [gone, unlisted, padded] = [listed[10]!, listed[20]!, listed[30]!];
  const data = [...source]
    .filter(([ticker]) => ticker !== gone)
    .map(([ticker, r]) => [
      r.cik,
      r.name,
      ticker === padded ? `${ticker} ` : ticker,
      ticker === unlisted ? null : r.exchange,
    ]);
  const dir = mkdtempSync(path.join(tmpdir(), 'sec-exchanges-later-'));
  const file = path.join(dir, 'company_tickers_exchange_later.json');
  writeFileSync(file, JSON.stringify({ fields: ['cik', 'name', 'ticker', 'exchange'], data }));
  return { file, gone, unlisted, padded };
}

describe("SEC's exchange files are snapshots, loaded in either order", () => {
  const later = laterSnapshot();
  const source = rows();
  const runs = ENGINES.flatMap(({ engine, skip }) =>
    (['older first', 'newer first'] as const).map((order) => ({ engine, skip, order })),
  );
  for (const { engine, skip, order } of runs) {
    it.skipIf(skip)(
      `${engine}, ${order}: what the newer no longer lists, or lists as null, has no exchange; a padded ticker is read`,
      async () => {
        const env = await testEnv({ engine });
        try {
          const loads = [
            () => loadFile(env.deps, loader, FILE, { published: '2024-07-16' }),
            () => loadFile(env.deps, loader, later.file, { published: '2024-12-19' }),
          ];
          for (const load of order === 'older first' ? loads : [...loads].reverse()) await load();
          const key = await marketKey(env.deps);
          const tickers = [later.gone, later.unlisted, later.padded].map(encodeURIComponent).join(',');
          const body = (
            await env.app.inject({
              method: 'GET',
              url: `/v1/data?tickers=${tickers}&fields=EXCH_CODE,CIK`,
              headers: bearer(key),
            })
          ).json();
          const [gone, unlisted, padded] = body.items;
          expect(gone.errors.EXCH_CODE.code).toBe('not_found');
          expect(unlisted.errors.EXCH_CODE.code).toBe('not_found');
          expect(unlisted.values.CIK).toBe(String(source.get(later.unlisted)?.cik).padStart(10, '0'));
          expect(padded.values.EXCH_CODE).toBe(source.get(later.padded)?.exchange);
          // Each value says the snapshot it is from: the newer, whichever order they were loaded in.
          expect(padded.asOf).toEqual({
            EXCH_CODE: '2024-12-19T00:00:00.000Z',
            CIK: '2024-12-19T00:00:00.000Z',
          });
          expect(gone.errors.EXCH_CODE.message).toBe(
            `no exchangeCode for ${later.gone} in SEC's exchange file of 2024-12-19`,
          );
          // As known between the two files: the older one's exchange and CIK, kept; before both, none.
          const between = (
            await env.app.inject({
              method: 'GET',
              url: `/v1/data?tickers=${tickers}&fields=EXCH_CODE,CIK&asOf=2024-10-01`,
              headers: bearer(key),
            })
          ).json();
          for (const [i, ticker] of [later.gone, later.unlisted].entries()) {
            const row = source.get(ticker);
            expect(between.items[i].values).toEqual({
              EXCH_CODE: row?.exchange,
              CIK: String(row?.cik).padStart(10, '0'),
            });
            expect(between.items[i].asOf).toEqual({
              EXCH_CODE: '2024-07-16T00:00:00.000Z',
              CIK: '2024-07-16T00:00:00.000Z',
            });
          }
          const before = (
            await env.app.inject({
              method: 'GET',
              url: `/v1/data?tickers=${tickers}&fields=EXCH_CODE&asOf=2024-07-15`,
              headers: bearer(key),
            })
          ).json();
          expect(
            before.items.map(
              (item: { errors: { EXCH_CODE: { code: string } } }) => item.errors.EXCH_CODE.code,
            ),
          ).toEqual(['not_found', 'not_found', 'not_found']);
        } finally {
          await env.close();
        }
      },
    );
  }
});
