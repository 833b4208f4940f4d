// quarry ingest ted: TED award notices (R2.0.9 export XML) as notice rows, one per awarded lot; the notice's
// own total kept as published, never a sum the loader makes, and never a sum across currencies.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const SPAIN = asset('awards/ted/20-157543-001-EXP.xml');
const UK = asset('awards/ted/21-000061-001-EXP.xml');
const POLAND = asset('awards/ted/22-086633-001-EXP.xml');
const NORWAY = asset('awards/ted/20-157399-001-EXP.xml');

/** Sums decimal strings exactly, in cents. */
const cents = (amounts: string[]) =>
  amounts.reduce((sum, a) => sum + BigInt(Math.round(Number(a) * 100)), 0n);

describe('quarry ingest ted', () => {
  let env: TestEnv;
  let key: string;
  const load = (file: string) => loadFile(env.deps, LOADERS.ted as NonNullable<typeof LOADERS.ted>, file);
  const rows = (notice: string) =>
    env.deps.store.db
      .selectFrom('awards')
      .selectAll()
      .where('source', '=', 'ted')
      .where('source_award_id', 'like', `${notice}#%`)
      .where('is_current', '=', 1)
      .orderBy('row_id')
      .execute();
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
  });
  afterAll(() => env.close());

  it("the Spanish notice's three lots sum to its own total, EUR 9,642,953.44", async () => {
    expect(await load(SPAIN)).toMatchObject({ dataset: 'awards', inserted: 3 });
    const lots = await rows('2020/S 064-153579');
    expect(lots.map((r) => [r.currency, r.jurisdiction, r.award_type, r.award_date])).toEqual(
      Array(3).fill(['EUR', 'ES', 'notice', '2020-03-18']),
    );
    expect(cents(lots.map((r) => r.obligated_amount))).toBe(964_295_344n);
    expect(JSON.parse(lots[0]?.details ?? '{}').noticeTotal).toEqual({
      amount: '9642953.44',
      currency: 'EUR',
    });
    expect(lots[0]?.source_url).toBe('http://ted.europa.eu/udl?uri=TED:NOTICE:153579-2020:TEXT:ES:HTML');
  });

  it('a UK framework: twelve lots of GBP 50–250 million under its GBP 300 million, kept as published; UK is GB', async () => {
    expect(await load(UK)).toMatchObject({ inserted: 12 });
    const lots = await rows('2021/S 003-003543');
    expect(lots.every((r) => r.jurisdiction === 'GB' && r.currency === 'GBP')).toBe(true);
    expect(lots.map((r) => r.obligated_amount).sort()).toEqual([
      ...Array(6).fill('250000000'),
      ...Array(6).fill('50000000'),
    ]);
    expect(JSON.parse(lots[0]?.details ?? '{}')).toMatchObject({
      noticeTotal: { amount: '300000000', currency: 'GBP' },
    });
    expect(lots[0]?.recipient_name).toBe('Amey OW Ltd');
    expect(lots[0]?.agency_name).toBe('Highways England');
  });

  it("the UK framework's summaries count the notice's own total, not its lots' ceilings, and say so", async () => {
    // From the XML itself: the notice's total (the first VAL_TOTAL, in OBJECT_CONTRACT) and each awarded lot's.
    const xml = readFileSync(UK, 'utf8');
    const values = [...xml.matchAll(/<VAL_TOTAL CURRENCY="GBP">(\d+)<\/VAL_TOTAL>/g)].map((m) => m[1]!);
    const [total, ...lotValues] = values;
    expect(cents(lotValues)).toBeGreaterThan(cents([total!]));
    const answer = await env.app.inject({ url: '/v1/awards?jurisdiction=GB', headers: bearer(key) });
    const { agencies, leaders } = answer.json().data;
    expect(agencies).toEqual([
      {
        name: 'Highways England',
        awards: 12,
        amounts: [{ currency: 'GBP', obligatedAmount: `${total}.00`, capped: true }],
      },
    ]);
    // Ove Arup won lots 5 and 9 (250 + 50 million): their sum is the notice's total, not past it.
    const arup = leaders.find((l: { recipient: string }) => l.recipient === 'Ove Arup and Partners Ltd');
    expect(arup).toEqual({
      recipient: 'Ove Arup and Partners Ltd',
      awards: 2,
      amounts: [{ currency: 'GBP', obligatedAmount: '300000000.00' }],
    });
  });

  it('the Polish notice: an unsuccessful lot is no award; its PLN total adding a EUR lot is flagged, not summed', async () => {
    expect(await load(POLAND)).toMatchObject({ inserted: 7 });
    const lots = await rows('2022/S 035-088158');
    expect(new Set(lots.map((r) => r.currency))).toEqual(new Set(['PLN', 'EUR']));
    for (const lot of lots) {
      expect(JSON.parse(lot.details ?? '{}')).toMatchObject({
        noticeTotal: { amount: '231126.50', currency: 'PLN' },
        alerts: ["the notice's total (PLN) adds lots valued in other currencies"],
      });
    }
    // The listing's alerts carry the flag, over the whole filtered set, not only the page.
    const res = await env.app.inject({ url: '/v1/awards?jurisdiction=PL&limit=1', headers: bearer(key) });
    const alerts = res.json().data.alerts as { kind: string; awardId: string }[];
    expect(alerts.filter((a) => a.kind === 'source_flag')).toHaveLength(7);
  });

  it("the Norwegian notice states only the buyer's estimates: shown as estimates, said to be", async () => {
    expect(await load(NORWAY)).toMatchObject({ inserted: 4 });
    const lots = await rows('2020/S 064-154292');
    expect(lots.map((r) => JSON.parse(r.details ?? '{}').amountKind)).toEqual(
      Array(4).fill('estimated_value'),
    );
    const res = await env.app.inject({ url: '/v1/awards?jurisdiction=NO', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.rows).toHaveLength(4);
    expect(await load(NORWAY)).toMatchObject({ unchanged: 4 });
  });

  it('XML that is not a TED notice, and a cut notice, are refused; nothing kept', async () => {
    const held = (await env.deps.store.db.selectFrom('awards').select('row_id').execute()).length;
    const other = path.join(env.dataDir, 'other.xml');
    writeFileSync(
      other,
      '<?xml version="1.0"?><TED_EXPORT xmlns="http://publications.europa.eu/resource/schema/ted/R2.0.9/publication"><CODED_DATA_SECTION/></TED_EXPORT>',
    );
    await expect(load(other)).rejects.toThrow(/other\.xml: not a TED award notice/);
    const { readFileSync } = await import('node:fs');
    const cut = path.join(env.dataDir, 'cut.xml');
    writeFileSync(cut, readFileSync(SPAIN, 'utf8').slice(0, 6000));
    await expect(load(cut)).rejects.toThrow(/cut\.xml: not well-formed XML/);
    expect((await env.deps.store.db.selectFrom('awards').select('row_id').execute()).length).toBe(held);
  });
});

const UTILITIES_FR = real('usaspending/ted/18-412273-001-EXP.xml');
const TRANSPARENCY_FR = real('usaspending/ted/21-298854-001-EXP.xml');
const TRANSPARENCY_UK = real('usaspending/ted/21-139343-001-EXP.xml');
const CONCESSION_FR = real('usaspending/ted/19-318420-001-EXP.xml');
const SOCIAL_DE = real('usaspending/ted/21-635824-001-EXP.xml');

describe('quarry ingest ted: the other award forms', () => {
  let env: TestEnv;
  const load = (file: string) => loadFile(env.deps, LOADERS.ted as NonNullable<typeof LOADERS.ted>, file);
  const rows = async (notice: string) =>
    (
      await env.deps.store.db
        .selectFrom('awards')
        .selectAll()
        .where('source', '=', 'ted')
        .where('source_award_id', 'like', `${notice}#%`)
        .where('is_current', '=', 1)
        .orderBy('source_award_id')
        .execute()
    ).map((r) => ({
      lot: r.source_award_id.split('#')[1],
      date: r.award_date,
      amount: r.obligated_amount,
      currency: r.currency,
      winner: r.recipient_name,
      details: JSON.parse(r.details ?? '{}'),
    }));
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('F06, utilities: the three awarded lots of five, a group of two contractors one row naming both', async () => {
    expect(await load(UTILITIES_FR)).toMatchObject({ inserted: 3 });
    const lots = await rows('2018/S 178-404080');
    expect(lots.map(({ lot, date, amount, winner }) => [lot, date, amount, winner])).toEqual([
      [
        '1',
        '2018-08-23',
        '4625137.40',
        'Eiffage route mediterranée (mandataire); Gagneraud Construction (cotraitant)',
      ],
      ['2', '2018-08-24', '535873.21', 'NGE Génie Civil'],
      ['3', '2018-08-23', '369648.37', 'Paysages méditerranéens'],
    ]);
    expect(lots[0]?.details).toMatchObject({
      form: 'F06',
      amountKind: 'contract_value',
      noticeTotal: { amount: '5530658.98', currency: 'EUR' },
    });
  });

  it('F15, voluntary ex ante transparency: six contracts awarded without prior publication', async () => {
    expect(await load(TRANSPARENCY_FR)).toMatchObject({ inserted: 6 });
    const lots = await rows('2021/S 112-295428');
    expect(lots.map((l) => l.amount)).toEqual(['10900', '5510', '1920', '4030', '11700', '1300']);
    expect(lots.map((l) => l.winner)).toEqual([
      ...Array(4).fill('Discobus — AZ-Production'),
      'Concept Audio',
      'Concept Audio',
    ]);
    expect(lots.every((l) => l.details.form === 'F15' && l.date === '2021-05-21')).toBe(true);
  });

  it('F15 from the UK: a GBP framework lot of thirteen firms and a EUR lot, the mix flagged', async () => {
    expect(await load(TRANSPARENCY_UK)).toMatchObject({ inserted: 2 });
    const [gbp, eur] = await rows('2021/S 055-140295');
    expect(gbp).toMatchObject({ lot: '1', amount: '200000000.00', currency: 'GBP', date: '2016-10-10' });
    expect(gbp?.winner.split('; ')).toHaveLength(13);
    expect(
      gbp?.winner.startsWith('Palladium International Ltd; Tetra Tech International Development Ltd'),
    ).toBe(true);
    expect(eur).toMatchObject({ lot: '2', amount: '200000000.00', currency: 'EUR' });
    expect(eur?.winner.split('; ')).toHaveLength(16);
    expect(eur?.details.alerts).toEqual(["the notice's total (GBP) adds lots valued in other currencies"]);
  });

  it('F25, concession award: the concession with its value', async () => {
    expect(await load(CONCESSION_FR)).toMatchObject({ inserted: 1 });
    expect(await rows('2019/S 128-315003')).toEqual([
      expect.objectContaining({
        lot: '1',
        date: '2019-05-30',
        amount: '6883000',
        currency: 'EUR',
        winner: 'SO Space',
        details: expect.objectContaining({ form: 'F25' }),
      }),
    ]);
  });

  it("F21 in 24 languages: the original (English) form's two award sections, not the translations", async () => {
    expect(await load(SOCIAL_DE)).toMatchObject({ inserted: 2 });
    const lots = await rows('2021/S 238-625923');
    expect(lots.map(({ lot, date, amount, winner }) => [lot, date, amount, winner])).toEqual([
      ['1', '2021-11-24', '1500000.00', 'Krisolis Ltd'],
      ['2', '2021-11-19', '1500000.00', 'IE University'],
    ]);
  });

  it('a form without awards is refused naming the form; an F21 contract notice too', async () => {
    const original = readFileSync(SOCIAL_DE, 'utf8');
    const contractNotice = path.join(env.dataDir, 'f02.xml');
    writeFileSync(contractNotice, original.replaceAll('F21_2014', 'F02_2014'));
    await expect(load(contractNotice)).rejects.toThrow(
      'f02.xml: notice 2021/S 238-625923 is form F02 (contract notice), which awards no contract: the award forms are F03, F06, F15, F21, F22, F23, F25',
    );
    const noAwards = path.join(env.dataDir, 'f21-notice.xml');
    writeFileSync(noAwards, original.replace(/<AWARD_CONTRACT[\s\S]*?<\/AWARD_CONTRACT>/g, ''));
    await expect(load(noAwards)).rejects.toThrow(
      'f21-notice.xml: notice 2021/S 238-625923 (form F21, social and other specific services, public contracts) has no award section: not an award notice',
    );
  });
});

const POLISH_HOSPITAL = asset('awards/ted/2024-OJS072-00215550.xml');
const DUTCH_WATER_BOARD = asset('awards/ted/2024-OJS065-00191536.xml');
const BELGIAN_OMBUDSMEN = asset('awards/ted/2024-OJS198-00611835.xml');
const FINNISH = real('usaspending/ted-eforms/2024-OJS170-00525037.xml');

describe('quarry ingest ted: eForms notices', () => {
  let env: TestEnv;
  const load = (file: string) => loadFile(env.deps, LOADERS.ted as NonNullable<typeof LOADERS.ted>, file);
  const rows = (notice: string) =>
    env.deps.store.db
      .selectFrom('awards')
      .selectAll()
      .where('source_award_id', 'like', `${notice}#%`)
      .where('is_current', '=', 1)
      .orderBy('row_id')
      .execute();
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it("a Polish hospital's six winning tenders sum to its notice's own total, PLN 14,543,415.48", async () => {
    expect(await load(POLISH_HOSPITAL)).toMatchObject({ inserted: 6 });
    const tenders = await rows('00215550-2024');
    expect(
      tenders.every((r) => r.currency === 'PLN' && r.jurisdiction === 'PL' && r.award_type === 'notice'),
    ).toBe(true);
    expect(cents(tenders.map((r) => r.obligated_amount))).toBe(1_454_341_548n);
    expect(JSON.parse(tenders[0]?.details ?? '{}').noticeTotal).toEqual({
      amount: '14543415.48',
      currency: 'PLN',
    });
  });

  it('a Dutch water board: winner, buyer, award date and the notice page; the country read from ISO alpha-3', async () => {
    await load(DUTCH_WATER_BOARD);
    expect(await rows('00191536-2024')).toEqual([
      expect.objectContaining({
        jurisdiction: 'NL',
        currency: 'EUR',
        obligated_amount: '3887000.00',
        recipient_name: 'Hegeman Bouw & Infra B.V.',
        agency_name: 'Waterschap Rivierenland',
        award_date: '2024-02-14',
        source_url: 'https://ted.europa.eu/en/notice/-/detail/00191536-2024',
      }),
    ]);
  });

  it('buyers procuring jointly are named together, the first leading', async () => {
    expect(await load(BELGIAN_OMBUDSMEN)).toMatchObject({ inserted: 5 });
    const lots = await rows('00611835-2024');
    expect(lots.every((r) => r.agency_name.startsWith('Service de Médiation pour le Consommateur; '))).toBe(
      true,
    );
    expect(lots.every((r) => r.jurisdiction === 'BE')).toBe(true);
  });

  it('winners without a stated value make no rows, and the load says so', async () => {
    expect(await load(FINNISH)).toMatchObject({
      inserted: 0,
      notes: ['notice 00525037-2024 has no winning tender with a value'],
    });
  });
});

const TICKERS = asset('sec/company_tickers.json');

describe('TED winners linked to SEC registrants', () => {
  let env: TestEnv;
  const ted = LOADERS.ted as NonNullable<typeof LOADERS.ted>;
  const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;
  const linked = () =>
    env.deps.store.db
      .selectFrom('awards')
      .select(['recipient_name', 'ticker', 'entity'])
      .where('source', '=', 'ted')
      .where('is_current', '=', 1)
      .where('ticker', 'is not', null)
      .execute();
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('no winner of the shared notices is an SEC registrant, so none is linked', async () => {
    await loadFile(env.deps, sec, TICKERS);
    for (const file of [SPAIN, UK, POLAND, NORWAY, POLISH_HOSPITAL, DUTCH_WATER_BOARD])
      await loadFile(env.deps, ted, file);
    expect(await linked()).toEqual([]);
  });

  it('a sole winner named as a registrant is linked, by the same rule as US recipients', async () => {
    // A stand-in registrant: no registrant in EDGAR's list wins a lot of the shared notices.
    const standIn = path.join(env.dataDir, 'company_tickers.json');
    writeFileSync(standIn, JSON.stringify({ 0: { cik_str: 990001, ticker: 'AMEY', title: 'AMEY OW LTD.' } }));
    await loadFile(env.deps, sec, standIn);
    await loadFile(env.deps, ted, UK);
    const rows = await linked();
    // Of the notice's twelve awarded lots, one names Amey OW Ltd (its only contractor).
    expect(rows).toHaveLength(1);
    expect(rows.every((r) => r.recipient_name === 'Amey OW Ltd' && r.ticker === 'AMEY')).toBe(true);
    expect(JSON.parse(rows[0]?.entity ?? '{}')).toEqual({
      ticker: 'AMEY',
      cik: '0000990001',
      name: 'AMEY OW LTD.',
      matchedBy: 'recipient_name',
    });
  });
});
