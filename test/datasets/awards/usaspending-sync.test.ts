// quarry sync usaspending: prime contracts matching filters, from a local stand-in for USAspending's API that
// serves recorded real responses: the search page loaded, each new award's detail and transactions after it,
// a busy answer (503) waited out.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awardId } from '../../../src/datasets/awards/import.js';
import {
  searchBody,
  subawardBody,
  syncUsaspending,
} from '../../../src/datasets/awards/load/usaspending-sync.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { MockAgency } from '../../helpers/agency.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const SEARCH = asset('awards/usaspending/01-award-search-dod-mit.json');
const DETAIL = asset('awards/usaspending/03-award-detail-sample.json');
const TRANSACTIONS = asset('awards/usaspending/04-transactions-sample.json');
const AWARD = 'CONT_AWD_0007_9700_FA870215D0001_9700';
const NASA = asset('awards/usaspending');
const SUBAWARDS = path.join(NASA, 'search_results_subawards.json');
const IDV_SEARCH = asset('awards/usaspending/search_results_idvs.json');
const IDV = asset('awards/usaspending/idv.json');
const SUBAWARD_ASK = /"spending_level":"subawards"/;

describe('the search asked of USAspending', () => {
  it('names the filters, the fields and, after the first page, where the last one ended', () => {
    const body = searchBody(
      { agencies: ['Department of Defense'], recipients: ['MIT'], from: '2020-01-01', to: '2024-12-31' },
      { id: 298582866, sort: '724562749.92' },
      '2026-11-25',
    );
    expect(body).toMatchObject({
      filters: {
        award_type_codes: ['A', 'B', 'C', 'D'],
        agencies: [{ type: 'awarding', tier: 'toptier', name: 'Department of Defense' }],
        recipient_search_text: ['MIT'],
        time_period: [{ start_date: '2020-01-01', end_date: '2024-12-31' }],
      },
      limit: 100,
      last_record_unique_id: 298582866,
      last_record_sort_value: '724562749.92',
    });
    expect(body.fields).toContain('generated_internal_id');
    expect(searchBody({}, null, '2026-11-25')).not.toHaveProperty('last_record_unique_id');
    // A range open at its end stops at the day the sync runs (its clock), not at the machine's today.
    expect(searchBody({ from: '2020-01-01' }, null, '2027-02-28').filters).toMatchObject({
      time_period: [{ start_date: '2020-01-01', end_date: '2027-02-28' }],
    });
  });

  it('asks for the subawards of prime awards by their award ids, a page at a time', () => {
    expect(subawardBody(['0007', 'FA870219F0001'], 2)).toMatchObject({
      filters: { award_ids: ['0007', 'FA870219F0001'] },
      spending_level: 'subawards',
      limit: 100,
      page: 2,
    });
  });
});

describe('quarry sync usaspending', () => {
  const api = new MockAgency();
  let env: TestEnv;
  const sync = () =>
    syncUsaspending(
      env.deps,
      { agencies: ['Department of Defense'], recipients: ['MASSACHUSETTS INSTITUTE OF TECHNOLOGY'] },
      LOADERS.usaspending as NonNullable<typeof LOADERS.usaspending>,
      { backoffMs: 20 },
    );

  beforeAll(async () => {
    await api.start();
    api.serve('/api/v2/search/spending_by_award/', SEARCH);
    api.serve('/api/v2/search/spending_by_award/', SUBAWARDS, SUBAWARD_ASK);
    api.serve(`/api/v2/awards/${AWARD}/`, DETAIL);
    api.serve('/api/v2/transactions/', TRANSACTIONS);
    env = await testEnv({ env: api.env() });
  });
  afterAll(async () => {
    await env.close();
    await api.stop();
  });

  it('loads the search page, then the detail and transactions of each award it can fetch; a busy answer is waited out', async () => {
    let busy = 2;
    api.fail(`/api/v2/awards/${AWARD}/`, 503);
    const started = performance.now();
    const timer = setInterval(() => {
      if (
        api.requests.filter((r) => r.path === `/api/v2/awards/${AWARD}/` && r.status === 503).length >= busy
      ) {
        api.fail(`/api/v2/awards/${AWARD}/`, null);
        busy = Number.POSITIVE_INFINITY;
      }
    }, 5);
    const report = await sync();
    clearInterval(timer);
    expect(performance.now() - started).toBeGreaterThanOrEqual(20 + 40);
    const outcome = (name: string) => report.files.find((f) => f.name === name)?.outcome;
    expect(outcome('search page 1')).toBe('loaded');
    expect(outcome(AWARD)).toBe('loaded');
    expect(outcome(`${AWARD} transactions`)).toBe('loaded');
    // The other nine awards have no detail on the stand-in.
    expect(report.files.filter((f) => f.outcome === 'not_published')).toHaveLength(9);
    const posts = api.requests.filter(
      (r) => r.path === '/api/v2/search/spending_by_award/' && !SUBAWARD_ASK.test(r.body),
    );
    // The second page brought nothing new, so the run stopped.
    expect(posts).toHaveLength(2);
    expect(posts[0]?.headers['content-type']).toBe('application/json');
    // Then the subawards of the page's ten awards, asked by their award ids; the stand-in's second page of
    // subawards repeats the first, so the run went no further.
    const subawardAsks = api.requests.filter((r) => SUBAWARD_ASK.test(r.body));
    expect(subawardAsks).toHaveLength(2);
    const asked = JSON.parse(subawardAsks[0]?.body ?? '{}');
    expect(asked.filters.award_ids).toHaveLength(10);
    expect(asked.filters.award_ids).toContain('0007');
    expect(outcome('subawards of page 1, page 1')).toBe('loaded');
    const subawards = await env.deps.store.db
      .selectFrom('awards')
      .select(['obligated_amount', 'parent_id'])
      .where('award_type', '=', 'subaward')
      .where('is_current', '=', 1)
      .orderBy('obligated_amount')
      .execute();
    expect(subawards.map((r) => r.obligated_amount)).toEqual(['2030214', '495216', '71739']);
    expect(new Set(subawards.map((r) => r.parent_id))).toEqual(
      new Set([awardId('usaspending', 'CONT_AWD_80GSFC18C0008_8000_-NONE-_-NONE-')]),
    );
    const mods = await env.deps.store.db
      .selectFrom('awards')
      .select('id')
      .where('parent_id', '=', awardId('usaspending', AWARD))
      .where('award_type', '=', 'modification')
      .execute();
    expect(mods).toHaveLength(10);
  });

  it('a busy host that stays busy is reported unreachable, not failed', async () => {
    api.fail('/api/v2/search/spending_by_award/', 503);
    try {
      const report = await sync();
      expect(report.files).toEqual([
        expect.objectContaining({ name: 'search page 1', outcome: 'unreachable', reason: 'HTTP 503' }),
      ]);
    } finally {
      api.fail('/api/v2/search/spending_by_award/', null);
    }
  });
});

describe('quarry sync usaspending, run again', () => {
  const api = new MockAgency();
  let env: TestEnv;
  const sync = () =>
    syncUsaspending(
      env.deps,
      { agencies: ['National Aeronautics and Space Administration'] },
      LOADERS.usaspending as NonNullable<typeof LOADERS.usaspending>,
      { backoffMs: 20 },
    );

  beforeAll(async () => {
    await api.start();
    api.serve('/api/v2/search/spending_by_award/', IDV_SEARCH);
    api.serve('/api/v2/search/spending_by_award/', SUBAWARDS, SUBAWARD_ASK);
    api.serve('/api/v2/awards/CONT_IDV_80JSC019C0012_8000/', IDV);
    env = await testEnv({ env: api.env() });
  });
  afterAll(async () => {
    await env.close();
    await api.stop();
  });

  it('does not fetch again an award whose Last Modified Date is the one it was fetched at', async () => {
    const detailAsks = () =>
      api.requests.filter((r) => r.path === '/api/v2/awards/CONT_IDV_80JSC019C0012_8000/');
    const first = await sync();
    expect(first.files.find((f) => f.name === 'CONT_IDV_80JSC019C0012_8000')?.outcome).toBe('loaded');
    expect(detailAsks()).toHaveLength(1);
    const second = await sync();
    expect(second.files.find((f) => f.name === 'CONT_IDV_80JSC019C0012_8000')).toBeUndefined();
    expect(detailAsks()).toHaveLength(1);
    // Its subawards are not asked for again either; the two awards never fetched still are.
    const asks = api.requests.filter((r) => SUBAWARD_ASK.test(r.body));
    const lastAsk = JSON.parse(asks.at(-1)?.body ?? '{}');
    expect(lastAsk.filters.award_ids.sort()).toEqual(['NNJ09GA02B', 'NNK10LB00B']);
  });
});
