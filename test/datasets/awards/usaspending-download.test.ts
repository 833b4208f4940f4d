// USAspending's award downloads in today's layout. No such download is among the shared files yet, so these
// files are written here in that layout from the values of the shared API responses of the same awards (the
// DoD–MIT search, an award's detail and its transactions), and must read as the API's own rows read.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadAmount } from '../../../src/datasets/awards/load/current-bulk.js';
import { loadFile } from '../../../src/ingest/run.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

const SEARCH = asset('awards/usaspending/01-award-search-dod-mit.json');
const DETAIL = asset('awards/usaspending/03-award-detail-sample.json');
const TRANSACTIONS = asset('awards/usaspending/04-transactions-sample.json');
const AWARD = 'CONT_AWD_0007_9700_FA870215D0001_9700';

type Json = Record<string, unknown>;
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;
const quoted = (value: unknown) => `"${String(value ?? '').replaceAll('"', '""')}"`;
const csv = (header: string[], rows: unknown[][]) =>
  [header, ...rows].map((fields) => fields.map(quoted).join(',')).join('\r\n');

describe('download amounts', () => {
  it('are written as the API writes its numbers', () => {
    expect(downloadAmount('1594101040.69')).toBe('1594101040.69');
    expect(downloadAmount('1594101040.690')).toBe('1594101040.69');
    expect(downloadAmount('5000.00')).toBe('5000');
    expect(downloadAmount('-86440.52')).toBe('-86440.52');
    expect(downloadAmount('-0.00')).toBe('0');
    expect(downloadAmount('1,000.00')).toBeNull();
    expect(downloadAmount('')).toBeNull();
  });
});

describe('quarry ingest usaspending: award downloads', () => {
  let env: TestEnv;
  const load = (file: string) =>
    loadFile(env.deps, LOADERS.usaspending as NonNullable<typeof LOADERS.usaspending>, file);
  const rows = (type: string) =>
    env.deps.store.db
      .selectFrom('awards')
      .selectAll()
      .where('award_type', '=', type)
      .where('is_current', '=', 1)
      .orderBy('source_award_id')
      .execute();
  beforeAll(async () => {
    env = await testEnv();
  });
  afterAll(() => env.close());

  it('prime award summaries: the ten DoD–MIT awards, totalling the search’s published figure', async () => {
    const results = json(SEARCH).results as Json[];
    const file = path.join(env.dataDir, 'Contracts_PrimeAwardSummaries_1.csv');
    const header = [
      'contract_award_unique_key',
      'award_id_piid',
      'total_obligated_amount',
      'award_base_action_date',
      'awarding_agency_name',
      'awarding_sub_agency_name',
      'recipient_name',
      'prime_award_base_transaction_description',
    ];
    writeFileSync(
      file,
      `\uFEFF${csv(
        header,
        results.map((r) => [
          r.generated_internal_id,
          r['Award ID'],
          (r['Award Amount'] as number).toFixed(2),
          r['Start Date'],
          r['Awarding Agency'],
          r['Awarding Sub Agency'],
          r['Recipient Name'],
          r.Description,
        ]),
      )}`,
    );
    expect(await load(file)).toMatchObject({ lines: 10, inserted: 10 });
    const primes = await rows('prime');
    expect(primes).toHaveLength(10);
    // 9,913,272,642.47, summed exactly in cents.
    const cents = primes.reduce((sum, r) => {
      const [whole, fraction = ''] = r.obligated_amount.split('.');
      return sum + BigInt(`${whole}${fraction.padEnd(2, '0')}`);
    }, 0n);
    expect(cents).toBe(991327264247n);
    const award = primes.find((r) => r.source_award_id === AWARD);
    expect(award).toMatchObject({
      obligated_amount: '1594101040.69',
      award_date: '2016-06-03',
      title:
        'TRANSITION OF PROGRAMS FROM MIT LL CONTRACT FA8721-05-C-0002 TO MIT LL CONTRACT FA8702-15-D-0001',
      recipient_name: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      agency_name: 'Department of Defense',
    });
    expect(JSON.parse(award?.details ?? '{}')).toMatchObject({
      amountKind: 'obligation',
      subAgency: 'Department of the Air Force',
    });
    // The API's detail of the same award states the same total.
    expect(await load(DETAIL)).toMatchObject({ lines: 1 });
    const again = (await rows('prime')).find((r) => r.source_award_id === AWARD);
    expect(again?.obligated_amount).toBe('1594101040.69');
  });

  it('prime transactions: each action a modification keyed as the API keys it, the base action the prime', async () => {
    const detail = json(DETAIL);
    const actions = json(TRANSACTIONS).results as Json[];
    const header = [
      'contract_transaction_unique_key',
      'contract_award_unique_key',
      'award_id_piid',
      'modification_number',
      'transaction_number',
      'parent_award_agency_id',
      'parent_award_id_piid',
      'federal_action_obligation',
      'total_dollars_obligated',
      'action_date',
      'awarding_agency_name',
      'awarding_sub_agency_name',
      'recipient_name',
      'recipient_parent_name',
      'transaction_description',
      'prime_award_base_transaction_description',
      'naics_code',
    ];
    const row = (key: string, modification: string, amount: string, date: string, description: string) => [
      key,
      AWARD,
      '0007',
      modification,
      '1',
      '9700',
      'FA870215D0001',
      amount,
      (detail.total_obligation as number).toFixed(2),
      date,
      'Department of Defense',
      'Department of the Air Force',
      'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      description,
      detail.description,
      '541712',
    ];
    const file = path.join(env.dataDir, 'Contracts_PrimeTransactions_1.csv');
    writeFileSync(
      file,
      csv(header, [
        ...actions.map((t) =>
          row(
            String(t.id).replace(/^CONT_TX_/, ''),
            String(t.modification_number),
            (t.federal_action_obligation as number).toFixed(2),
            String(t.action_date),
            String(t.description),
          ),
        ),
        // The sample holds the award's ten latest actions, not its base action: this row stands for it, with
        // the detail's signed date and an action amount of its own.
        row('9700_9700_0007_0_FA870215D0001_1', '0', '1000000.00', String(detail.date_signed), 'BASE'),
      ]),
    );
    // Twelve records from eleven rows: ten actions and the base action inserted, and the base action's prime
    // row, which is the very row the API's detail of the award gave (loaded above): unchanged.
    expect(await load(file)).toMatchObject({ lines: 12, inserted: 11, unchanged: 1 });
    const modifications = (await rows('modification')).filter((r) => r.parent_id !== null);
    const byId = new Map(modifications.map((r) => [r.source_award_id, r]));
    for (const t of actions) {
      const ours = byId.get(String(t.id));
      expect(ours, String(t.id)).toBeDefined();
      expect(Number(ours?.obligated_amount)).toBe(t.federal_action_obligation);
      expect(ours?.award_date).toBe(t.action_date);
    }
    // A de-obligation stays negative, written as the API writes it.
    expect(byId.get('CONT_TX_9700_9700_0007_Q6_FA870215D0001_1')?.obligated_amount).toBe('-86440.52');
    const prime = (await rows('prime')).find((r) => r.source_award_id === AWARD);
    expect(prime).toMatchObject({ obligated_amount: '1594101040.69', award_date: '2016-06-03' });
    expect(JSON.parse(prime?.details ?? '{}')).toMatchObject({
      parentAward: 'CONT_IDV_FA870215D0001_9700',
    });
    // The API's own transactions file names the same ten actions: nothing new is inserted for them.
    const report = await load(TRANSACTIONS);
    expect(report.inserted).toBe(0);
  });

  it('refuses a row with an amount that is not one, keeping nothing of the file', async () => {
    const file = path.join(env.dataDir, 'Contracts_PrimeAwardSummaries_bad.csv');
    writeFileSync(
      file,
      csv(
        [
          'contract_award_unique_key',
          'award_id_piid',
          'total_obligated_amount',
          'award_base_action_date',
          'awarding_agency_name',
          'recipient_name',
        ],
        [
          [
            'CONT_AWD_BAD1_9700_-NONE-_-NONE-',
            'BAD1',
            '10.00',
            '2020-01-01',
            'Department of Defense',
            'ACME',
          ],
          [
            'CONT_AWD_BAD2_9700_-NONE-_-NONE-',
            'BAD2',
            '$1,000',
            '2020-01-01',
            'Department of Defense',
            'ACME',
          ],
        ],
      ),
    );
    await expect(load(file)).rejects.toThrow(
      /Contracts_PrimeAwardSummaries_bad\.csv:3: total_obligated_amount "\$1,000" is not an amount/,
    );
    const kept = await env.deps.store.db
      .selectFrom('awards')
      .select('id')
      .where('source_award_id', 'like', 'CONT_AWD_BAD%')
      .execute();
    expect(kept).toEqual([]);
  });
});
