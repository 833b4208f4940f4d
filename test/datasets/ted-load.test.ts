// quarry ingest ted: TED award notices (R2.0.9 export XML) as notice rows, one per awarded lot; the notice's
// own total kept as published, never a sum the loader makes, and never a sum across currencies.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../helpers/env.js';
import { haveShared, SHARED_DATA } from '../helpers/shared.js';

const TED = path.join(SHARED_DATA, 'usaspending/ted');
const SPAIN = path.join(TED, '20-157543-001-EXP.xml');
const UK = path.join(TED, '21-000061-001-EXP.xml');
const POLAND = path.join(TED, '22-086633-001-EXP.xml');
const NORWAY = path.join(TED, '20-157399-001-EXP.xml');

/** Sums decimal strings exactly, in cents. */
const cents = (amounts: string[]) =>
  amounts.reduce((sum, a) => sum + BigInt(Math.round(Number(a) * 100)), 0n);

describe.skipIf(!haveShared(SPAIN, UK, POLAND, NORWAY))('quarry ingest ted', () => {
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

const EFORMS = path.join(SHARED_DATA, 'usaspending/ted-eforms');
const POLISH_HOSPITAL = path.join(EFORMS, '2024-OJS072-00215550.xml');
const DUTCH_WATER_BOARD = path.join(EFORMS, '2024-OJS065-00191536.xml');
const BELGIAN_OMBUDSMEN = path.join(EFORMS, '2024-OJS198-00611835.xml');
const FINNISH = path.join(EFORMS, '2024-OJS170-00525037.xml');

describe.skipIf(!haveShared(POLISH_HOSPITAL, DUTCH_WATER_BOARD, BELGIAN_OMBUDSMEN, FINNISH))(
  'quarry ingest ted: eForms notices',
  () => {
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
  },
);

const TICKERS = path.join(SHARED_DATA, 'sec/company_tickers.json');

describe.skipIf(!haveShared(TICKERS, SPAIN, UK, POLAND, NORWAY, POLISH_HOSPITAL, DUTCH_WATER_BOARD))(
  'TED winners linked to SEC registrants',
  () => {
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
      writeFileSync(
        standIn,
        JSON.stringify({ 0: { cik_str: 990001, ticker: 'AMEY', title: 'AMEY OW LTD.' } }),
      );
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
  },
);
