// The listing's summaries from award columns, on columns made by hand: exact sums, the ten largest groups,
// and the sparse tally that many recipients times many currencies take.
import { describe, expect, it } from 'vitest';
import { type AwardColumns, emptyDictionaries, splitAmount } from '../../../src/datasets/awards/columns.js';
import { NewestDates, summarize, summarizeFiltered } from '../../../src/datasets/awards/summarize.js';
import { emptyTitleWords } from '../../../src/datasets/awards/words.js';

interface Row {
  agency: string;
  recipient: string;
  currency: string;
  amount: string;
  date: string;
  /** When the revision became known, and when a later one superseded it (ISO); known long ago and current by default. */
  known?: string;
  superseded?: string;
  /** The notice the row is a lot of, with the notice's own total: "GBP 300000000". */
  notice?: string;
}

function columnsOf(rows: Row[], extraCurrencies = 0, extraRecipients = 0): AwardColumns {
  const n = rows.length;
  const dict = emptyDictionaries();
  // Names held by the dictionaries without rows: they widen the tallies as a large store would.
  for (let i = 0; i < extraCurrencies; i += 1) dict.currency.code(`X${String(i).padStart(2, '0')}`);
  for (let i = 0; i < extraRecipients; i += 1) dict.recipient.code(`Recipient ${i}`);
  const notices: AwardColumns['notices'] = [];
  const noticeOf = new Map<string, number>();
  const notice = Int32Array.from(rows, (r) => {
    if (!r.notice) return -1;
    if (!noticeOf.has(r.notice)) {
      const [currency, amount] = r.notice.split(' ') as [string, string];
      const [hi, lo] = splitAmount(amount);
      noticeOf.set(r.notice, notices.length);
      notices.push({ currency: dict.currency.code(currency), hi, lo });
    }
    return noticeOf.get(r.notice)!;
  });
  const cols: AwardColumns = {
    size: n,
    rowIds: Float64Array.from(rows, (_, i) => i + 1),
    agency: Int32Array.from(rows, (r) => dict.agency.code(r.agency)),
    sector: new Int32Array(n).fill(-1),
    recipient: Int32Array.from(rows, (r) => dict.recipient.code(r.recipient)),
    ticker: new Int32Array(n).fill(-1),
    source: Int32Array.from(rows, () => dict.source.code('usaspending')),
    jurisdiction: Int32Array.from(rows, () => dict.jurisdiction.code('US')),
    currency: Int32Array.from(rows, (r) => dict.currency.code(r.currency)),
    awardType: Int32Array.from(rows, () => dict.awardType.code('prime')),
    parent: new Int32Array(n).fill(-1),
    fiscalYear: Int32Array.from(rows, (r) => Number(r.date.slice(0, 4))),
    date: Int32Array.from(rows, (r) => Number(r.date.replaceAll('-', ''))),
    hi: Float64Array.from(rows, (r) => splitAmount(r.amount)[0]),
    lo: Float64Array.from(rows, (r) => splitAmount(r.amount)[1]),
    flagged: new Uint8Array(n),
    notice,
    notices,
    knownAt: Float64Array.from(rows, (r) => Date.parse(r.known ?? '2000-01-01T00:00:00Z')),
    supersededAt: Float64Array.from(rows, (r) =>
      r.superseded ? Date.parse(r.superseded) : Number.POSITIVE_INFINITY,
    ),
    titleWords: emptyTitleWords(),
    firstFiscalYear: Math.min(...rows.map((r) => Number(r.date.slice(0, 4)))),
    lastFiscalYear: Math.max(...rows.map((r) => Number(r.date.slice(0, 4)))),
    dict,
  };
  return cols;
}

const row = (recipient: string, currency: string, amount: string): Row => ({
  agency: 'Agency A',
  recipient,
  currency,
  amount,
  date: '2024-03-01',
});

describe('award summaries', () => {
  it('sums exactly per currency, never across currencies', () => {
    const cols = columnsOf([
      row('Acme', 'USD', '0.10'),
      row('Acme', 'USD', '0.20'),
      row('Acme', 'EUR', '999999999999.999999'),
      row('Acme', 'EUR', '0.000001'),
      row('Beta', 'USD', '-5.05'),
    ]);
    const summary = summarize(cols, {}, null);
    expect(summary.agencies).toEqual([
      {
        key: 'Agency A',
        awards: 5,
        amounts: [
          { currency: 'EUR', obligatedAmount: '1000000000000.00' },
          { currency: 'USD', obligatedAmount: '-4.75' },
        ],
      },
    ]);
    expect(summary.deobligationRows).toEqual([5]);
  });

  it("a notice's lots count no more than its own total in any group, in its currency; the cut says so", () => {
    const lot = (recipient: string, amount: string, notice: string, currency = 'GBP') => ({
      ...row(recipient, currency, amount),
      notice,
    });
    const cols = columnsOf([
      // A framework: four lot ceilings of 250 and 50 under a notice total of 300.
      lot('Acme', '250', 'GBP 300'),
      lot('Acme', '250', 'GBP 300'),
      lot('Beta', '50', 'GBP 300'),
      lot('Gamma', '50', 'GBP 300'),
      // A notice whose lots add up to less than its total: their sum.
      lot('Beta', '10.50', 'GBP 100'),
      // A lot in another currency than its notice's total is not cut by it.
      lot('Gamma', '900', 'GBP 300', 'EUR'),
      row('Beta', 'GBP', '1.25'),
    ]);
    const summary = summarize(cols, {}, null);
    expect(summary.agencies).toEqual([
      {
        key: 'Agency A',
        awards: 7,
        amounts: [
          { currency: 'EUR', obligatedAmount: '900.00' },
          // 300 (cut from 600) + 10.50 + 1.25
          { currency: 'GBP', obligatedAmount: '311.75', capped: true },
        ],
      },
    ]);
    const byRecipient = Object.fromEntries(summary.leaders.map((l) => [l.key, l.amounts]));
    expect(byRecipient).toEqual({
      Acme: [{ currency: 'GBP', obligatedAmount: '300.00', capped: true }],
      Beta: [{ currency: 'GBP', obligatedAmount: '61.75' }],
      Gamma: [
        { currency: 'EUR', obligatedAmount: '900.00' },
        { currency: 'GBP', obligatedAmount: '50.00' },
      ],
    });
  });

  it('counts a revision from the time it became known until a later one superseded it', () => {
    // Acme's award: 100.00 known from March, revised to 150.00 in June; Beta's first known in May.
    const cols = columnsOf([
      { ...row('Acme', 'USD', '100.00'), known: '2024-03-05T00:00:00Z', superseded: '2024-06-01T00:00:00Z' },
      { ...row('Acme', 'USD', '150.00'), known: '2024-06-01T00:00:00Z' },
      { ...row('Beta', 'USD', '7.00'), known: '2024-05-02T00:00:00Z' },
    ]);
    const total = (knownAt?: string) =>
      summarize(cols, knownAt ? { knownAt } : {}, null).agencies[0]?.amounts ?? [];
    expect(total()).toEqual([{ currency: 'USD', obligatedAmount: '157.00' }]);
    expect(total('2024-03-04T23:59:59Z')).toEqual([]);
    expect(total('2024-03-05T00:00:00Z')).toEqual([{ currency: 'USD', obligatedAmount: '100.00' }]);
    expect(total('2024-05-31T23:59:59Z')).toEqual([{ currency: 'USD', obligatedAmount: '107.00' }]);
    expect(total('2024-06-01T00:00:00Z')).toEqual([{ currency: 'USD', obligatedAmount: '157.00' }]);
  });

  it('the page of awards known at an instant is the same walked newest first as found by a pass over all', () => {
    // 3,000 revisions over 200 days, each known from a random day and some superseded later.
    let seed = 7;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);
    const rows: Row[] = Array.from({ length: 3000 }, (_, i) => {
      const known = Math.floor(rand() * 300);
      return {
        ...row(`R${i % 40}`, 'USD', '1.00'),
        date: day(Math.floor(rand() * 200)),
        known: `${day(known)}T00:00:00Z`,
        ...(rand() < 0.3 ? { superseded: `${day(known + 1 + Math.floor(rand() * 60))}T00:00:00Z` } : {}),
      };
    });
    const cols = columnsOf(rows);
    for (const knownAt of ['2024-03-01T00:00:00Z', '2024-08-01T00:00:00Z']) {
      for (const page of [
        { before: null, rows: 51 },
        { before: 20240405, rows: 51 },
        { before: 20240105, rows: 11 },
        { before: 20240601, rows: 3000 },
      ]) {
        const passed = (summarize(cols, { knownAt }, null, page).pageRows ?? []).sort((a, b) => a - b);
        // The first call finds the summary (a pass over all); the second is answered from it, walking.
        summarizeFiltered(cols, { knownAt }, null, page);
        const walked = (summarizeFiltered(cols, { knownAt }, null, page).pageRows ?? []).sort(
          (a, b) => a - b,
        );
        expect(walked).toEqual(passed);
        expect(passed.length).toBeGreaterThan(0);
      }
    }
  });

  it('lists the ten recipients with the most awards, ties by name, in a sparse tally of 2,000 x 1,000 cells', () => {
    const rows: Row[] = [];
    // Recipient k has k awards of 1.01 each, k from 1 to 12, and two ties at 12.
    for (let k = 1; k <= 12; k += 1)
      for (let j = 0; j < k; j += 1) rows.push(row(`R${String(k).padStart(2, '0')}`, 'USD', '1.01'));
    for (let j = 0; j < 12; j += 1) rows.push(row('R00 tie', 'GBP', '2.50'));
    const summary = summarize(columnsOf(rows, 1000, 2000), {}, null);
    expect(summary.leaders.map((l) => [l.key, l.awards])).toEqual([
      ['R00 tie', 12],
      ['R12', 12],
      ['R11', 11],
      ['R10', 10],
      ['R09', 9],
      ['R08', 8],
      ['R07', 7],
      ['R06', 6],
      ['R05', 5],
      ['R04', 4],
    ]);
    expect(summary.leaders[0]?.amounts).toEqual([{ currency: 'GBP', obligatedAmount: '30.00' }]);
    expect(summary.leaders[1]?.amounts).toEqual([{ currency: 'USD', obligatedAmount: '12.12' }]);
  });

  it('a filter on a name never held matches nothing', () => {
    const summary = summarize(columnsOf([row('Acme', 'USD', '1.00')]), { agency: 'Nobody' }, null);
    expect([summary.agencies, summary.span]).toEqual([[], null]);
  });
});

describe('summaries kept per filter set', () => {
  const dated = (recipient: string, amount: string, date: string): Row => ({
    ...row(recipient, 'USD', amount),
    date,
  });
  const rows = [
    dated('Acme', '5.00', '2024-03-01'),
    dated('Acme', '7.00', '2024-03-02'),
    dated('Beta', '1.00', '2024-03-03'),
    dated('Beta', '9.00', '2024-03-04'),
    dated('Gamma', '3.00', '2024-03-05'),
  ];

  it("a later page of the same listing has the first page's summaries and its own awards", () => {
    const cols = columnsOf(rows);
    const filters = { minAmount: '4' };
    const first = summarizeFiltered(cols, filters, null, { before: null, rows: 2 });
    const later = summarizeFiltered(cols, filters, null, { before: 20240304, rows: 2 });
    // Awards of 5, 7 and 9: the first page reaches back to 03-02, the page before 03-04 to 03-01.
    expect(first.pageRows).toEqual([2, 4]);
    expect(later.pageRows).toEqual([1, 2, 4]);
    expect(later.leaders).toEqual(first.leaders);
    expect(first.leaders).toEqual([
      { key: 'Acme', awards: 2, amounts: [{ currency: 'USD', obligatedAmount: '12.00' }] },
      { key: 'Beta', awards: 1, amounts: [{ currency: 'USD', obligatedAmount: '9.00' }] },
    ]);
    // Another filter set is summarised for itself.
    const other = summarizeFiltered(cols, { minAmount: '8' }, null, { before: null, rows: 2 });
    expect(other.leaders).toEqual([
      { key: 'Beta', awards: 1, amounts: [{ currency: 'USD', obligatedAmount: '9.00' }] },
    ]);
    // New columns (a load since) are summarised anew.
    const reloaded = columnsOf([...rows, dated('Acme', '6.00', '2024-03-06')]);
    expect(summarizeFiltered(reloaded, filters, null, { before: null, rows: 2 }).leaders[0]).toEqual({
      key: 'Acme',
      awards: 3,
      amounts: [{ currency: 'USD', obligatedAmount: '18.00' }],
    });
  });
});

describe('the newest dates behind a page', () => {
  it('keeps the newest of the dates offered, whatever their order, and its least', () => {
    const dates = [20240105, 20230101, 20250630, 20240105, 20251231, 20220315, 20250101, 20240229];
    for (const order of [dates, [...dates].reverse(), [...dates].sort()]) {
      const newest = new NewestDates(3);
      for (const d of order) newest.offer(d);
      expect(newest.least()).toBe(20250101);
    }
    const few = new NewestDates(20);
    for (const d of dates) few.offer(d);
    expect(few.least()).toBe(Number.NEGATIVE_INFINITY);
  });
});
