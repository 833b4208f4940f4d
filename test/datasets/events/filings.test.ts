// events and exec-pay: import of filing records and the company routes, on each engine.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsImporter } from '../../../src/datasets/events/import.js';
import { execPayImporter } from '../../../src/datasets/exec-pay/import.js';
import { type Importer, importFile } from '../../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../../helpers/env.js';

const NVDA = { ticker: 'NVDA', cik: '0001045810', companyName: 'NVIDIA Corp', companyShortName: 'NVIDIA' };
// NVIDIA 8-K rows of the EDGAR submissions JSON; acceptance times there are US Eastern, given here in UTC.
const EIGHT_KS = [
  ['0001045810-26-000019', '2026-02-25', '2026-02-25T21:31:25.000Z', ['2.02', '9.01'], 'nvda-20260225.htm'],
  ['0001045810-26-000003', '2026-01-23', '2026-01-24T03:01:33.000Z', ['5.02'], 'nvda-20260120.htm'],
  ['0001045810-25-000228', '2025-11-19', '2025-11-20T02:20:44.000Z', ['2.02', '9.01'], 'nvda-20251119.htm'],
  ['0001045810-25-000179', '2025-07-01', '2025-07-01T02:35:29.000Z', ['5.07'], 'nvda-20250625.htm'],
].map(([accessionNumber, filingDate, filedAt, items, doc]) => ({
  ...NVDA,
  accessionNumber,
  form: '8-K',
  filedAt,
  filingDate,
  docUrl: `https://www.sec.gov/Archives/edgar/data/1045810/${String(accessionNumber).replaceAll('-', '')}/${doc}`,
  items,
  headline: null,
  summary: null,
  people: [],
}));

// Cabot Corporation's 2024 proxy (DEF 14A): PEO total 7,791,510 for FY2023, 7,948,029 for FY2022; median
// employee 57,350; "approximately 136 to 1".
const CABOT = {
  ticker: 'CBT',
  cik: '0000016040',
  companyName: 'Cabot Corporation',
  companyShortName: 'Cabot',
  id: 'CBT-DEF14A-2024',
  proxyYear: 2024,
  fiscalYear: 2023,
  fiscalYearLabel: 'FY2023 (Oct 2022 - Sep 2023)',
  filedAt: '2024-01-26T12:00:00.000Z',
  meetingDate: '2024-03-07',
  ceoName: 'Sean D. Keohane',
  ceoTitle: 'President and Chief Executive Officer',
  ceoTotal: 7791510,
  ceoPriorYearTotal: 7948029,
  payRatio: 136,
  medianEmployeePay: 57350,
};

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`filings on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    const load = async <R>(importer: Importer<R>, name: string, records: object[]) => {
      const file = path.join(env.dataDir, name);
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
      return importFile(env.deps, importer, file);
    };
    beforeAll(async () => {
      env = await testEnv({ engine });
      user = await customer(env.deps);
      await load(eventsImporter, 'events.ndjson', EIGHT_KS);
      await load(execPayImporter, 'pay.ndjson', [CABOT]);
    });
    afterAll(() => env.close());
    const get = (url: string) => env.app.inject({ method: 'GET', url, headers: bearer(user.key) });

    it("a company's 8-Ks newest first, with labels, kinds and materiality", async () => {
      const res = await get('/v1/events/nvda?limit=3');
      expect(res.statusCode).toBe(200);
      const { data, meta } = res.json();
      expect(data.company).toEqual({
        ticker: 'NVDA',
        cik: '0001045810',
        name: 'NVIDIA Corp',
        shortName: 'NVIDIA',
      });
      expect(data.events.map((e: { id: string }) => e.id)).toEqual([
        '0001045810-26-000019',
        '0001045810-26-000003',
        '0001045810-25-000228',
      ]);
      expect(data.events[0]).toMatchObject({
        ticker: 'NVDA',
        company: 'NVIDIA Corp',
        filedAt: '2026-02-25T21:31:25.000Z',
        filingDate: '2026-02-25',
        form: '8-K',
        items: ['2.02', '9.01'],
        kinds: ['earnings', 'other'],
        material: true,
        headline: 'NVIDIA Corp 8-K: Results of Operations and Financial Condition',
        summary: null,
        people: [],
        read: false,
      });
      expect(meta).toMatchObject({
        asOf: '2026-02-25T21:31:25.000Z',
        historyStarts: '2025-07-01',
        coverage: { events: 4, firstFiling: '2025-07-01', lastFiling: '2026-02-25' },
      });
      const all = (await get('/v1/events/NVDA')).json().data.events;
      expect(all).toHaveLength(4);
      expect(all[3]).toMatchObject({ items: ['5.07'], material: false });
    });

    it('the proxies of a company, and one fiscal year with the change in CEO pay', async () => {
      const list = (await get('/v1/exec-pay/cbt')).json();
      expect(list.data.company.name).toBe('Cabot Corporation');
      expect(list.data.proxies[0]).toMatchObject({
        id: 'CBT-DEF14A-2024',
        ticker: 'CBT',
        company: 'Cabot Corporation',
        proxyYear: 2024,
        fiscalYear: 2023,
        ceoName: 'Sean D. Keohane',
        ceoTotal: 7791510,
        ceoPriorYearTotal: 7948029,
        payRatio: 136,
        medianEmployeePay: 57350,
        updatedAt: expect.any(String),
      });
      const year = (await get('/v1/exec-pay/CBT/2023')).json().data;
      // (7,791,510 - 7,948,029) / 7,948,029 = -1.97 %
      expect(year).toMatchObject({
        year: 2023,
        ceoPayChange: { ceoTotal: 7791510, ceoPriorYearTotal: 7948029, percent: -2 },
      });
      expect(year.proxies).toHaveLength(1);
      const empty = (await get('/v1/exec-pay/CBT/2019')).json().data;
      expect(empty).toMatchObject({ year: 2019, proxies: [], ceoPayChange: null });
    });

    it('404 not_found for a symbol no filing names; 200 empty for a known one with no rows', async () => {
      for (const url of ['/v1/events/ZZZZ', '/v1/exec-pay/ZZZZ', '/v1/exec-pay/ZZZZ/2024']) {
        const res = await get(url);
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
      expect((await get('/v1/events/CBT')).json().data.events).toEqual([]);
      expect((await get('/v1/exec-pay/NVDA')).json().data.proxies).toEqual([]);
    });

    it('a corrected filing becomes a new revision', async () => {
      const fixed = { ...EIGHT_KS[0], headline: 'NVIDIA announces financial results for the fourth quarter' };
      expect(await load(eventsImporter, 'fix.ndjson', [fixed])).toMatchObject({ revised: 1 });
      const top = (await get('/v1/events/NVDA?limit=1')).json().data.events[0];
      expect(top.headline).toBe('NVIDIA announces financial results for the fourth quarter');
      // The earlier revision is no longer current: the filing is listed once.
      const all = (await get('/v1/events/NVDA')).json().data.events;
      expect(all.filter((e: { id: string }) => e.id === fixed.accessionNumber)).toHaveLength(1);
      expect(all).toHaveLength(EIGHT_KS.length);
    });

    it('a corrected proxy replaces the one it corrects', async () => {
      const fixed = { ...CABOT, meetingDate: '2024-03-08' };
      expect(await load(execPayImporter, 'fix-proxy.ndjson', [fixed])).toMatchObject({ revised: 1 });
      const proxies = (await get('/v1/exec-pay/CBT')).json().data.proxies;
      expect(proxies.map((p: { meetingDate: string }) => p.meetingDate)).toEqual(['2024-03-08']);
    });
  });
}
