// Events from EDGAR's submissions JSON: one event per 8-K and 8-K/A row, acceptance times read as US
// Eastern time, the primary document's address, and the route serving them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentItem } from '../../../src/datasets/events/load/submissions.js';
import { loadFile } from '../../../src/ingest/run.js';
import { acceptedAt, shortName } from '../../../src/ingest/sec/filings.js';
import { tickersByCik } from '../../../src/ingest/sec/registrants.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const SUBMISSIONS = asset('sec/submissions');
const FILES = {
  AAPL: 'CIK0000320193.json',
  MSFT: 'CIK0000789019.json',
  NVDA: 'CIK0001045810.json',
  TSLA: 'CIK0001318605.json',
};

describe('acceptance times', () => {
  it("EDGAR's Z is Eastern time: 09:00:18 in April (EDT) is 13:00:18Z, 16:30:33 in January (EST) is 21:30:33Z", () => {
    // The PROVENANCE's check: the SEC header of 0000320193-24-000061 says 20240429090018.
    expect(acceptedAt('2024-04-29T09:00:18.000Z')).toBe('2024-04-29T13:00:18.000Z');
    expect(acceptedAt('2026-01-29T16:30:33.000Z')).toBe('2026-01-29T21:30:33.000Z');
  });

  it("a filing of before August 2004 keeps its items, read as today's codes; a code of no item is dropped", () => {
    expect(['5', '7', '12', '2.02', '9.01', 'X'].map(currentItem)).toEqual([
      '8.01',
      '9.01',
      '2.02',
      '2.02',
      '9.01',
      null,
    ]);
  });

  it('short names drop the legal form', () => {
    expect(shortName('Apple Inc.')).toBe('Apple');
    expect(shortName('NVIDIA CORP')).toBe('NVIDIA');
    expect(shortName('Tesla, Inc.')).toBe('Tesla');
  });
});

describe('quarry ingest sec: submissions JSON', () => {
  let env: TestEnv;
  let key: string;
  const loaded: Record<string, number> = {};
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
    const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
    for (const [ticker, file] of Object.entries(FILES)) {
      loaded[ticker] = (await loadFile(env.deps, sec, path.join(SUBMISSIONS, file))).inserted;
    }
  });
  afterAll(() => env.close());

  it('one event per 8-K and 8-K/A row: 107, 66, 61 and 127, as PROVENANCE counts them', () => {
    expect(loaded).toEqual({ AAPL: 107, MSFT: 66, NVDA: 61, TSLA: 127 });
  });

  it('the same file again changes nothing', async () => {
    const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
    const again = await loadFile(env.deps, sec, path.join(SUBMISSIONS, FILES.AAPL));
    expect(again).toMatchObject({ inserted: 0, revised: 0, unchanged: 107 });
  });

  it('/v1/events/AAPL serves them newest first, with items, labels, the Eastern-corrected time and the document', async () => {
    const res = await env.app.inject({ url: '/v1/events/AAPL?limit=100', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.company).toMatchObject({ ticker: 'AAPL', cik: '0000320193', name: 'Apple Inc.' });
    const earnings = data.events.find((e: { id: string }) => e.id === '0000320193-26-000005');
    expect(earnings).toMatchObject({
      form: '8-K',
      filedAt: '2026-01-29T21:30:33.000Z',
      filingDate: '2026-01-29',
      items: ['2.02', '9.01'],
      docUrl: 'https://www.sec.gov/Archives/edgar/data/320193/000032019326000005/aapl-20260129.htm',
    });
    expect(earnings.labels).toEqual([
      'Results of Operations and Financial Condition',
      'Financial Statements and Exhibits',
    ]);
    const dates = data.events.map((e: { filedAt: string }) => e.filedAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('a truncated file, a file of no kind EDGAR publishes and a gutted submissions file are refused, nothing kept', async () => {
    const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
    const truncated = path.join(env.dataDir, 'CIK0000789019-cut.json');
    const { readFileSync } = await import('node:fs');
    writeFileSync(truncated, readFileSync(path.join(SUBMISSIONS, FILES.MSFT), 'utf8').slice(0, 5000));
    await expect(loadFile(env.deps, sec, truncated)).rejects.toThrow(/CIK0000789019-cut\.json: not JSON/);
    const other = path.join(env.dataDir, 'page.json');
    writeFileSync(other, '{"status":"ok","results":[]}');
    await expect(loadFile(env.deps, sec, other)).rejects.toThrow(
      /page\.json: not a file this source reads \(it reads: .*company_tickers\.json.*submissions JSON/,
    );
    const cut = path.join(env.dataDir, 'CIK0000320193.json');
    writeFileSync(
      cut,
      '{"cik":"0000320193","entityType":"operating","name":"Apple Inc.","filings":{"recent":{"form":[]}}}',
    );
    await expect(loadFile(env.deps, sec, cut)).rejects.toThrow(/filings\.recent lacks accessionNumber/);
    const count = await env.deps.store.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(107 + 66 + 61 + 127);
  });
});

const TICKERS = asset('sec/company_tickers.json');

describe('quarry ingest sec: company_tickers.json', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('holds every registrant (9,610), and a CIK finds its first-listed ticker', async () => {
    const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
    const report = await loadFile(env.deps, sec, TICKERS);
    expect(report).toMatchObject({ dataset: 'registrants', lines: 9610, inserted: 9610 });
    const byCik = await tickersByCik(env.deps.store.db);
    expect(byCik.get('0000320193')).toBe('AAPL');
    expect(byCik.get('0000016040')).toBe('CBT');
    // Berkshire lists BRK-B before BRK-A; Alphabet GOOGL before GOOG.
    expect(byCik.get('0001067983')).toBe('BRK-B');
    expect(byCik.get('0001652044')).toBe('GOOGL');
    const again = await loadFile(env.deps, sec, TICKERS);
    expect(again).toMatchObject({ inserted: 0, revised: 0, unchanged: 9610 });
  });
});
