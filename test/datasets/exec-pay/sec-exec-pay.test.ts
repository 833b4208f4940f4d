// exec-pay from EDGAR: a DEF 14A's pay-versus-performance facts and its pay-ratio text (Cabot's 2024 proxy),
// and CEO-pay tables as a secondary source that a filing's proxy always outranks.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execPayImporter } from '../../../src/datasets/exec-pay/import.js';
import { payRatioText } from '../../../src/datasets/exec-pay/load/proxy.js';
import { importFile } from '../../../src/ingest/import.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const CABOT = asset('sec/exec-pay/cabot.DEF14A.ixbrl.html');
const TABLE = asset('sec/exec-pay/ceo_data_pay_merged_sp500.csv');
const TICKERS = asset('sec/company_tickers.json');

describe('pay ratio text', () => {
  it('reads the ratio as disclosed and the median amount that leads up to it', () => {
    const text =
      "For fiscal 2023, our CEO's annual total compensation was $7,791,510 and the median of the annual total " +
      'compensation of all employees (excluding our CEO) was $57,350. Based on this information, our pay ratio ' +
      'is approximately 136 to 1.';
    expect(payRatioText(text)).toEqual({ payRatio: 136, medianEmployeePay: 57_350 });
    expect(payRatioText('The median employee earned $41,200. The ratio was 1,447:1.')).toEqual({
      payRatio: 1447,
      medianEmployeePay: 41_200,
    });
    expect(payRatioText('No ratio is disclosed in this document.')).toEqual({
      payRatio: null,
      medianEmployeePay: null,
    });
  });
});

describe('quarry ingest sec: proxies and CEO-pay tables', () => {
  let env: TestEnv;
  let key: string;
  const sec = () => LOADERS.sec as NonNullable<typeof LOADERS.sec>;
  const get = async (url: string) => {
    const res = await env.app.inject({ url, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
    await loadFile(env.deps, sec(), TICKERS);
  });
  afterAll(() => env.close());

  it("Cabot's proxy: Sean D. Keohane, 7,791,510 (FY2023) against 7,948,029 (FY2022), median 57,350, ratio 136", async () => {
    const report = await loadFile(env.deps, sec(), CABOT);
    expect(report).toMatchObject({ dataset: 'exec-pay', inserted: 1 });
    const data = await get('/v1/exec-pay/CBT');
    expect(data.company).toMatchObject({ ticker: 'CBT', cik: '0000016040', name: 'Cabot Corporation' });
    expect(data.proxies).toEqual([
      expect.objectContaining({
        ticker: 'CBT',
        proxyYear: 2024,
        fiscalYear: 2023,
        fiscalYearLabel: 'FY2023 (Oct 2022 - Sep 2023)',
        filedAt: '2024-01-26T00:00:00.000Z',
        meetingDate: '2024-03-07',
        ceoName: 'Sean D. Keohane',
        ceoTotal: 7_791_510,
        ceoPriorYearTotal: 7_948_029,
        payRatio: 136,
        medianEmployeePay: 57_350,
        source: 'filing',
      }),
    ]);
    const year = await get('/v1/exec-pay/CBT/2023');
    expect(year.ceoPayChange).toEqual({ ceoTotal: 7_791_510, ceoPriorYearTotal: 7_948_029, percent: -2 });
    expect(await loadFile(env.deps, sec(), CABOT)).toMatchObject({ unchanged: 1 });
  });

  it('a CEO-pay table names no year: refused without --fiscal-year, nothing kept', async () => {
    await expect(loadFile(env.deps, sec(), TABLE)).rejects.toThrow(
      /names no year: give the fiscal year it reports with --fiscal-year/,
    );
    const held = await env.deps.store.db
      .selectFrom('exec_pay')
      .select('id')
      .where('ticker', '=', 'AAPL')
      .execute();
    expect(held).toEqual([]);
  });

  it('its rows become proxies marked with that source: Apple 98,734,394, ratio 1,447, median 68,254', async () => {
    const report = await loadFile(env.deps, sec(), TABLE, { 'fiscal-year': '2021' });
    expect(report).toMatchObject({ lines: 492, inserted: 492 });
    const data = await get('/v1/exec-pay/AAPL');
    expect(data.company.cik).toBe('0000320193');
    expect(data.proxies).toEqual([
      expect.objectContaining({
        fiscalYear: 2021,
        ceoName: 'Timothy Cook',
        ceoTotal: 98_734_394,
        payRatio: 1447,
        medianEmployeePay: 68_254,
        source: 'ceo-pay-table',
      }),
    ]);
  });

  it("a proxy read from a filing outranks the table's row for the same fiscal year", async () => {
    const filing = {
      ticker: 'NVDA',
      cik: '0001045810',
      companyName: 'NVIDIA Corp',
      companyShortName: 'NVIDIA',
      id: 'NVDA-DEF14A-2022',
      proxyYear: 2022,
      fiscalYear: 2021,
      fiscalYearLabel: 'FY2022 (Feb 2021 - Jan 2022)',
      filedAt: '2022-05-09T20:00:00.000Z',
      meetingDate: '2022-06-02',
      ceoName: 'Jen-Hsun Huang',
      ceoTitle: 'President and Chief Executive Officer',
      ceoTotal: 23_737_661,
      ceoPriorYearTotal: null,
      payRatio: null,
      medianEmployeePay: null,
    };
    const before = await get('/v1/exec-pay/NVDA/2021');
    expect(before.proxies.map((p: { source: string }) => p.source)).toEqual(['ceo-pay-table']);
    const file = path.join(env.dataDir, 'nvda-proxy.ndjson');
    writeFileSync(file, `${JSON.stringify(filing)}\n`);
    await importFile(env.deps, execPayImporter, file);
    const after = await get('/v1/exec-pay/NVDA/2021');
    expect(after.proxies).toEqual([expect.objectContaining({ id: 'NVDA-DEF14A-2022', source: 'filing' })]);
  });

  it('a year with two CEOs keeps both, each with the prior year of the same person', async () => {
    const context = (id: string, start: string, end: string, member: string) =>
      `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>` +
      `<xbrli:segment><xbrldi:explicitMember dimension="ecd:IndividualAxis">${member}</xbrldi:explicitMember></xbrli:segment>` +
      `</xbrli:entity><xbrli:period><xbrli:startDate>${start}</xbrli:startDate><xbrli:endDate>${end}</xbrli:endDate></xbrli:period></xbrli:context>`;
    const amount = (ctx: string, value: string) =>
      `<ix:nonFraction name="ecd:PeoTotalCompAmt" contextRef="${ctx}" unitRef="USD" decimals="0" scale="0">${value}</ix:nonFraction>`;
    const html =
      '<html><body><ix:header><ix:hidden><ix:nonNumeric name="dei:DocumentType" contextRef="d">DEF 14A</ix:nonNumeric>' +
      '<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="d">0000000001</ix:nonNumeric>' +
      '<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="d">Two Chiefs Inc.</ix:nonNumeric></ix:hidden>' +
      `<ix:resources>${context('d', '2023-01-01', '2023-12-31', 'x:NoneMember')}` +
      context('a23', '2023-01-01', '2023-12-31', 'x:AdaMember') +
      context('b23', '2023-01-01', '2023-12-31', 'x:BoMember') +
      context('a22', '2022-01-01', '2022-12-31', 'x:AdaMember') +
      '</ix:resources></ix:header>' +
      '<p>This proxy statement is first being made available to stockholders on or about March 1, 2024.</p>' +
      '<ix:nonNumeric name="ecd:PvpTableTextBlock" contextRef="d"><table><tr><td>' +
      '<ix:nonNumeric name="ecd:PeoName" contextRef="a23">Ada Lane</ix:nonNumeric></td><td>' +
      `${amount('a23', '4,100,000')}</td><td>${amount('a22', '3,900,000')}</td></tr><tr><td>` +
      `<ix:nonNumeric name="ecd:PeoName" contextRef="b23">Bo Quill</ix:nonNumeric></td><td>${amount('b23', '1,250,000')}` +
      '</td></tr></table></ix:nonNumeric></body></html>';
    const file = path.join(env.dataDir, 'two-chiefs.htm');
    writeFileSync(file, html);
    const report = await loadFile(env.deps, sec(), file, { ticker: 'TWOC' });
    expect(report).toMatchObject({ dataset: 'exec-pay', inserted: 2 });
    const data = await get('/v1/exec-pay/TWOC/2023');
    const people = data.proxies.map((p: Record<string, unknown>) => [
      p.ceoName,
      p.ceoTotal,
      p.ceoPriorYearTotal,
    ]);
    expect(people.sort()).toEqual([
      ['Ada Lane', 4_100_000, 3_900_000],
      ['Bo Quill', 1_250_000, null],
    ]);
    expect(data.proxies[0]).toMatchObject({
      filedAt: '2024-03-01T00:00:00.000Z',
      proxyYear: 2024,
      payRatio: null,
    });
  });

  it('an HTML page that is not a filing, and a DEF 14A without pay-versus-performance facts, are refused', async () => {
    const page = path.join(env.dataDir, 'index.html');
    writeFileSync(
      page,
      '<!DOCTYPE html><html><head><title>EDGAR Search</title></head><body>Results</body></html>',
    );
    await expect(loadFile(env.deps, sec(), page)).rejects.toThrow(
      /index\.html: not a file this source reads/,
    );
    const bare = path.join(env.dataDir, 'bare-def14a.htm');
    writeFileSync(
      bare,
      '<html><body><ix:nonNumeric name="dei:DocumentType" contextRef="c1">DEF 14A</ix:nonNumeric>' +
        '<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="c1">0000016040</ix:nonNumeric>' +
        '<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c1">Cabot Corporation</ix:nonNumeric></body></html>',
    );
    await expect(loadFile(env.deps, sec(), bare)).rejects.toThrow(
      /bare-def14a\.htm: no pay-versus-performance facts/,
    );
  });
});

describe('a CEO-pay table is known from its proxies’ filings, not from a date taken for it', () => {
  // Apple's submissions JSON lists its DEF 14A of 2022 as accepted 2022-01-06 16:30:34 New York time
  // (21:30:34 UTC); nothing dates the table's other rows, whose companies' filings are not held here.
  const NOW = new Date('2026-11-25T12:00:00Z');
  let env: TestEnv;
  let key: string;
  const sec = () => LOADERS.sec as NonNullable<typeof LOADERS.sec>;
  let submissions: Awaited<ReturnType<typeof loadFile>>;
  let table: Awaited<ReturnType<typeof loadFile>>;
  beforeAll(async () => {
    env = await testEnv({ clock: () => NOW });
    key = (await customer(env.deps)).key;
    await loadFile(env.deps, sec(), TICKERS);
    submissions = await loadFile(env.deps, sec(), asset('sec/submissions/CIK0000320193.json'));
    table = await loadFile(env.deps, sec(), TABLE, { 'fiscal-year': '2021' });
  });
  afterAll(() => env.close());
  const proxies = async (url: string) => {
    const res = await env.app.inject({ url, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.proxies as { ceoTotal: number; filedAt: string | null }[];
  };

  it('the submissions JSON gives its 8-Ks to events and its eleven proxies’ acceptance times beside them', () => {
    expect(submissions).toMatchObject({ dataset: 'events' });
    expect(submissions.also).toEqual([{ dataset: 'proxy-filings', inserted: 11, revised: 0, unchanged: 0 }]);
  });

  it('Apple’s fiscal 2021 pay is filed with its proxy of 6 January 2022, and not known the day before', async () => {
    expect(await proxies('/v1/exec-pay/AAPL/2021?asOf=2022-01-05')).toEqual([]);
    expect(await proxies('/v1/exec-pay/AAPL/2021?asOf=2022-01-06')).toEqual([
      expect.objectContaining({ ceoTotal: 98_734_394, filedAt: '2022-01-06T21:30:34.000Z' }),
    ]);
  });

  it('a row whose proxy is not held has no filing time, and is known from the load alone', async () => {
    // Microsoft's submissions are not loaded here.
    expect(await proxies('/v1/exec-pay/MSFT/2021')).toEqual([
      expect.objectContaining({ ceoTotal: 54_946_310, filedAt: null }),
    ]);
    expect(await proxies('/v1/exec-pay/MSFT/2021?asOf=2026-11-24')).toEqual([]);
    expect(table.notes).toContain(
      "491 rows without their company's 2022 proxy held: filedAt null, known from this load",
    );
  });
});
