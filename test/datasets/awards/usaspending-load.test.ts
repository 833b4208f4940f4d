// quarry ingest usaspending: the API's own responses (award search at both levels, award detail of each
// kind, transactions) read into award rows; totals checked against the figures the same files publish.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, entityOf } from '../../../src/datasets/awards/entity.js';
import { awardId } from '../../../src/datasets/awards/import.js';
import { awardOfTransaction } from '../../../src/datasets/awards/load/transactions.js';
import { cleanTitle, decimal } from '../../../src/datasets/awards/load/usaspending.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const DOD = real('usaspending/api/dod-mit-2026-02-10');
const SAVED = asset('awards/usaspending');
const NASA2 = real('usaspending/api/nasa-fixtures-2');
const SEARCH = path.join(SAVED, '01-award-search-dod-mit.json');
const DETAIL = path.join(SAVED, '03-award-detail-sample.json');
const TRANSACTIONS = path.join(SAVED, '04-transactions-sample.json');
const AWARD = 'CONT_AWD_0007_9700_FA870215D0001_9700';

/** Sums decimal strings exactly, in cents. */
const total = (amounts: string[]) => {
  const cents = amounts.reduce((sum, a) => sum + BigInt(Math.round(Number(a) * 100)), 0n);
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

describe('reading USAspending', () => {
  it('keeps amounts as the decimals written, drops IGF markers, and finds a transaction’s award', () => {
    expect(decimal(1594101040.69)).toBe('1594101040.69');
    expect(decimal(-86440.52)).toBe('-86440.52');
    expect(decimal(1600000)).toBe('1600000');
    expect(cleanTitle('IGF::OT::IGF TRANSITION OF PROGRAMS')).toBe('TRANSITION OF PROGRAMS');
    expect(awardOfTransaction('CONT_TX_9700_9700_0007_Q6_FA870215D0001_1')).toBe(AWARD);
    expect(awardOfTransaction('CONT_TX_8000_-NONE-_80GSFC18C0008_P00065_-NONE-_0')).toBe(
      'CONT_AWD_80GSFC18C0008_8000_-NONE-_-NONE-',
    );
  });
});

describe('quarry ingest usaspending', () => {
  let env: TestEnv;
  let key: string;
  const load = (file: string) =>
    loadFile(env.deps, LOADERS.usaspending as NonNullable<typeof LOADERS.usaspending>, file);
  const get = async (url: string) => {
    const res = await env.app.inject({ url, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const current = (type: string) =>
    env.deps.store.db
      .selectFrom('awards')
      .selectAll()
      .where('award_type', '=', type)
      .where('is_current', '=', 1)
      .execute();
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
  });
  afterAll(() => env.close());

  it('the ten DoD–MIT awards of the search total 9,913,272,642.47', async () => {
    expect(await load(SEARCH)).toMatchObject({ dataset: 'awards', inserted: 10 });
    const rows = await current('prime');
    expect(rows).toHaveLength(10);
    expect(total(rows.map((r) => r.obligated_amount))).toBe('9913272642.47');
    expect(rows.every((r) => r.jurisdiction === 'US' && r.currency === 'USD')).toBe(true);
  });

  it("the award's detail states the search's Award Amount as its total obligation: 1,594,101,040.69", async () => {
    expect(await load(DETAIL)).toMatchObject({ revised: 1 });
    const detail = await get(`/v1/awards/${awardId('usaspending', AWARD)}`);
    expect(detail.award).toMatchObject({
      sourceAwardId: AWARD,
      awardType: 'prime',
      obligatedAmount: '1594101040.69',
      awardDate: '2016-06-03',
      title:
        'TRANSITION OF PROGRAMS FROM MIT LL CONTRACT FA8721-05-C-0002 TO MIT LL CONTRACT FA8702-15-D-0001',
      recipient: { name: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY' },
      agency: { name: 'Department of Defense' },
      sourceUrl: `https://www.usaspending.gov/award/${AWARD}`,
    });
    expect(detail.details).toEqual({
      amountKind: 'obligation',
      subAgency: 'Department of the Air Force',
      parentAward: 'CONT_IDV_FA870215D0001_9700',
    });
    // The search's row is kept as the earlier revision, with the same amount.
    expect(detail.revisions).toEqual([
      expect.objectContaining({ revision: 1, obligatedAmount: '1594101040.69' }),
    ]);
    expect(await load(DETAIL)).toMatchObject({ unchanged: 1 });
  });

  it('transactions are modifications under their award; de-obligations stay negative', async () => {
    expect(await load(TRANSACTIONS)).toMatchObject({ inserted: 10 });
    const mods = await get(
      `/v1/awards?parentId=${awardId('usaspending', AWARD)}&awardType=modification&limit=50`,
    );
    expect(mods.rows).toHaveLength(10);
    const q6 = mods.rows.find((r: { sourceAwardId: string }) => r.sourceAwardId.includes('_Q6_'));
    expect(q6).toMatchObject({ obligatedAmount: '-86440.52', awardDate: '2025-09-19' });
    expect(q6.recipient.name).toBe('MASSACHUSETTS INSTITUTE OF TECHNOLOGY');
    // A page of one still reports the largest de-obligations of the whole set.
    const page = await get(
      `/v1/awards?parentId=${awardId('usaspending', AWARD)}&awardType=modification&limit=1`,
    );
    // Largest first: Q5's 102,874.88, Q6's 86,440.52, Q2's 818.26.
    expect(
      page.alerts.map((a: { kind: string; message: string }) => [
        a.kind,
        /took back ([0-9.]+)/.exec(a.message)?.[1],
      ]),
    ).toEqual([
      ['deobligation', '102874.88'],
      ['deobligation', '86440.52'],
      ['deobligation', '818.26'],
    ]);
  });

  it('subawards are keyed with their prime and date, and linked to it', async () => {
    expect(await load(path.join(SAVED, 'search_results_subawards.json'))).toMatchObject({ inserted: 3 });
    const rows = await current('subaward');
    const prime = 'CONT_AWD_80GSFC18C0008_8000_-NONE-_-NONE-';
    expect(rows.map((r) => r.parent_id)).toEqual([
      awardId('usaspending', prime),
      awardId('usaspending', prime),
      awardId('usaspending', prime),
    ]);
    expect(rows.every((r) => r.source_award_id.startsWith(`${prime}/`))).toBe(true);
    expect(new Set(rows.map((r) => r.recipient_name))).toEqual(
      new Set(['REGENTS OF THE UNIVERSITY OF CALIFORNIA, THE', 'LOCKHEED MARTIN CORPORATION']),
    );
  });

  it("a grant's obligation, and a loan's subsidy cost with its face value said apart", async () => {
    await load(path.join(SAVED, 'grant.json'));
    await load(path.join(SAVED, 'loan.json'));
    const grant = await get(`/v1/awards/${awardId('usaspending', 'ASST_NON_NNM11AA01A_080')}`);
    expect(grant.award).toMatchObject({ obligatedAmount: '156725919.62', awardDate: '2011-04-08' });
    const loan = await get(`/v1/awards/${awardId('usaspending', 'ASST_NON_P268K115150_091')}`);
    expect(loan.award.obligatedAmount).toBe('0');
    expect(loan.details).toMatchObject({ amountKind: 'loan_subsidy_cost', faceValue: '717015404040' });
  });

  it('the legacy bulk CSV: base actions as primes, later actions as modifications; its actions total 13,459,752.50', async () => {
    const file = asset('awards/usaspending/usaspending_treasury_contracts.csv');
    expect(await load(file)).toMatchObject({ lines: 126, inserted: 126 });
    const rows = await env.deps.store.db
      .selectFrom('awards')
      .selectAll()
      .where('load_source', '=', 'usaspending_treasury_contracts.csv')
      .execute();
    expect(rows.filter((r) => r.award_type === 'prime')).toHaveLength(63);
    expect(total(rows.map((r) => r.obligated_amount))).toBe('13459752.50');
    const printer = rows.find((r) => r.source_award_id === 'CONT_AWD_TIRSE16K00067_2050_NNG15SD76B_8000');
    expect(printer).toMatchObject({
      award_type: 'prime',
      obligated_amount: '4537.85',
      award_date: '2016-09-08',
      title: 'FOR OTHER FUNCTIONS - DESIGN JET T795 44-IN EPRINTER',
      agency_name: 'Department of the Treasury',
    });
    expect(JSON.parse(printer?.details ?? '{}')).toEqual({
      amountKind: 'action_obligation',
      subAgency: 'INTERNAL REVENUE SERVICE',
      parentAward: 'CONT_IDV_NNG15SD76B_8000',
      lastModified: '2016-09-08',
    });
    // The row's last_modified_date (9/8/2016) is when this revision became known, not the load.
    expect(printer?.known_at).toBe('2016-09-08T00:00:00.000Z');
    // Sectors are the NAICS codes' two-digit sectors (541519: Professional, Scientific, and Technical Services).
    expect(printer?.sector).toBe('Professional, Scientific, and Technical Services');
    const sectors = (await get('/v1/awards?source=usaspending')).sectors as { name: string }[];
    expect(sectors.map((x) => x.name)).toEqual(
      expect.arrayContaining(['Professional, Scientific, and Technical Services', 'Manufacturing']),
    );
    const refund = rows.find((r) => r.obligated_amount === '-62512');
    expect(refund).toMatchObject({
      award_type: 'modification',
      parent_id: awardId('usaspending', 'CONT_AWD_TFSAFSA16K0071_2036_GS02F0023X_4732'),
    });
  });

  it('a response of another endpoint, a cut file and transactions of an award not held are refused, nothing kept', async () => {
    const count = async () =>
      (await env.deps.store.db.selectFrom('awards').select('row_id').execute()).length;
    const held = await count();
    await expect(load(path.join(DOD, '05-spending-by-recipient-dod.json'))).rejects.toThrow(
      /not a file this source reads/,
    );
    const cut = path.join(env.dataDir, 'search-cut.json');
    writeFileSync(cut, readFileSync(SEARCH, 'utf8').slice(0, 1500));
    await expect(load(cut)).rejects.toThrow(/search-cut\.json: not JSON/);
    await expect(load(path.join(NASA2, 'transactions.json'))).rejects.toThrow(
      /is not held: load its detail or search row first/,
    );
    expect(await count()).toBe(held);
  });
});

describe('recipients that are listed companies', () => {
  it('compare names without case, punctuation, state tags and legal forms', () => {
    expect(comparable('NORTHROP GRUMMAN CORP /DE/')).toBe('NORTHROP GRUMMAN');
    expect(comparable('Lockheed Martin Corporation')).toBe('LOCKHEED MARTIN');
    expect(comparable('REGENTS OF THE UNIVERSITY OF CALIFORNIA, THE')).toBe(
      'REGENTS OF THE UNIVERSITY OF CALIFORNIA',
    );
    const names = new Map([
      ['LOCKHEED MARTIN', { ticker: 'LMT', cik: '0000936468', name: 'LOCKHEED MARTIN CORP' }],
      ['SHARED NAME', null],
    ]);
    expect(entityOf(names, 'LOCKHEED MARTIN CORP')).toMatchObject({
      ticker: 'LMT',
      matchedBy: 'recipient_name',
    });
    expect(entityOf(names, 'LOCKHEED MARTIN SPACE', 'Lockheed Martin Corporation')).toMatchObject({
      ticker: 'LMT',
      matchedBy: 'parent_recipient_name',
    });
    // Near names, and names two registrants share, link nothing.
    expect(entityOf(names, 'LOCKHEED MARTIN SYSTEMS CORP')).toBeNull();
    expect(entityOf(names, 'Shared Name Inc')).toBeNull();
  });
});

const TICKERS = asset('sec/company_tickers.json');

describe('awards linked to SEC registrants', () => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
    await loadFile(env.deps, LOADERS.sec as NonNullable<typeof LOADERS.sec>, TICKERS);
    const usaspending = LOADERS.usaspending as NonNullable<typeof LOADERS.usaspending>;
    for (const file of [
      path.join(SAVED, 'search_results_subawards.json'),
      path.join(SAVED, 'idv.json'),
      path.join(SAVED, 'spending_by_award_contracts.json'),
      SEARCH,
    ]) {
      await loadFile(env.deps, usaspending, file);
    }
  });
  afterAll(() => env.close());

  it('Lockheed Martin is LMT; Northrop Grumman Systems, MIT and the University of California are no listed company', async () => {
    const res = await env.app.inject({ url: '/v1/awards?ticker=LMT&limit=50', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data.rows as { recipient: { name: string }; entity: Record<string, string> }[];
    expect(rows.map((r) => r.recipient.name).sort()).toEqual([
      'LOCKHEED MARTIN CORP',
      'LOCKHEED MARTIN CORPORATION',
    ]);
    expect(rows[0]?.entity).toMatchObject({ ticker: 'LMT', cik: '0000936468', matchedBy: 'recipient_name' });
    const linked = await env.deps.store.db
      .selectFrom('awards')
      .select(['recipient_name', 'ticker'])
      .where('is_current', '=', 1)
      .where('ticker', 'is not', null)
      .execute();
    expect(linked.every((r) => r.ticker === 'LMT')).toBe(true);
  });
});
