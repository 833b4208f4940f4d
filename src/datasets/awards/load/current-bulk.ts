// USAspending's award downloads in today's layout (snake_case columns, the award named by
// contract_award_unique_key), recognised by their header:
// - prime transactions (federal_action_obligation, modification_number, action_date): each row one contract
//   action, a modification row keyed as the API keys the same transaction (CONT_TX_…) with that action's
//   obligation; the base action (modification 0) also gives the award's prime row, with the award's total
//   obligation as of the download (total_dollars_obligated), as the API's award detail does;
// - prime award summaries (total_obligated_amount): each row an award's prime row.
// Amounts are written as the API's are (trailing zeros of the cents dropped), so either source's rows of one
// award agree.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { csvFields, csvRows, SourceError, type SourceFile } from '../../../ingest/source.js';
import { entityOf } from '../entity.js';
import type { AwardRecordValue } from '../import.js';
import { naicsSector } from '../sectors.js';
import { slashedDate } from './bulk.js';
import { base, cleanTitle, type Held, type Out, PAGE } from './usaspending.js';

const AWARD_COLUMNS = [
  'contract_award_unique_key',
  'award_id_piid',
  'recipient_name',
  'awarding_agency_name',
];
const TRANSACTION_COLUMNS = [
  ...AWARD_COLUMNS,
  'modification_number',
  'federal_action_obligation',
  'total_dollars_obligated',
  'action_date',
];
const SUMMARY_COLUMNS = [...AWARD_COLUMNS, 'total_obligated_amount'];

const headerOf = (head: string) => new Set(csvFields(head.split(/\r?\n/)[0] ?? '').map((c) => c.trim()));

export const CURRENT_TRANSACTIONS: FileKind = {
  name: 'USAspending award download, prime transactions (contract_award_unique_key, federal_action_obligation, …)',
  recognises: (head) => {
    const header = headerOf(head);
    return TRANSACTION_COLUMNS.every((c) => header.has(c));
  },
};

export const CURRENT_SUMMARIES: FileKind = {
  name: 'USAspending award download, prime award summaries (contract_award_unique_key, total_obligated_amount, …)',
  recognises: (head) => {
    const header = headerOf(head);
    return SUMMARY_COLUMNS.every((c) => header.has(c)) && !header.has('federal_action_obligation');
  },
};

/** 1594101040.690 → 1594101040.69, 5000.00 → 5000: the form the API's numbers take. Null if not a decimal. */
export function downloadAmount(text: string): string | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const whole = m[2]!.replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const sign = m[1] && (whole !== '0' || fraction) ? '-' : '';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** YYYY-MM-DD as written, or M/D/YYYY as a spreadsheet re-saves it; null for anything else. */
function downloadDate(text: string): string | null {
  const value = text.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : slashedDate(value);
}

type Get = (name: string) => string;

/** What a prime row and a transaction row of one award share. */
function awardParts(source: SourceFile, line: number, get: Get, context: LoadContext<Held>) {
  const award = get('contract_award_unique_key').toUpperCase();
  const recipient = get('recipient_name');
  const agency = get('awarding_agency_name');
  if (!award || !recipient || !agency)
    throw new SourceError(
      source.name,
      line,
      'a row needs contract_award_unique_key, recipient_name and awarding_agency_name',
    );
  const entity = entityOf(context.prepared.names, recipient, get('recipient_parent_name') || null);
  const subAgency = get('awarding_sub_agency_name');
  const idv = get('parent_award_id_piid');
  const idvAgency = get('parent_award_agency_id');
  const modified = downloadDate(get('last_modified_date').slice(0, 10));
  return {
    award,
    common: {
      ...base(context, entity, naicsSector(get('naics_code'))),
      recipient: { name: recipient.slice(0, 500) },
      agency: { name: agency },
      sourceUrl: get('usaspending_permalink') || `${PAGE}${award}`,
    },
    details: {
      ...(subAgency ? { subAgency } : {}),
      ...(idv && idvAgency ? { parentAward: `CONT_IDV_${idv}_${idvAgency}`.toUpperCase() } : {}),
      ...(modified ? { lastModified: modified } : {}),
    },
  };
}

/** The amount in `column`, written as the API writes it; the row is refused when it is not one. */
function amountIn(source: SourceFile, line: number, get: Get, column: string): string {
  const amount = downloadAmount(get(column));
  if (amount === null)
    throw new SourceError(source.name, line, `${column} "${get(column)}" is not an amount`);
  return amount;
}

/** The date in `text` (read from `column`); the row is refused when it is not one. */
function dateIn(source: SourceFile, line: number, column: string, text: string): string {
  const date = downloadDate(text);
  if (date === null) throw new SourceError(source.name, line, `${column} "${text}" is not a date`);
  return date;
}

/** An award's prime row: its total obligation as of the download. */
function primeRow(
  parts: ReturnType<typeof awardParts>,
  title: string,
  date: string,
  total: string,
): AwardRecordValue {
  return {
    ...parts.common,
    sourceAwardId: parts.award,
    awardType: 'prime',
    title,
    awardDate: date,
    obligatedAmount: total,
    parentSourceAwardId: null,
    details: { amountKind: 'obligation', ...parts.details },
  };
}

export async function* currentTransactions(source: SourceFile, context: LoadContext<Held>): Out {
  for await (const { line, get } of csvRows(source)) {
    const parts = awardParts(source, line, get, context);
    const date = dateIn(source, line, 'action_date', get('action_date'));
    const action = amountIn(source, line, get, 'federal_action_obligation');
    const modification = get('modification_number');
    const key = get('contract_transaction_unique_key');
    const title = cleanTitle(get('transaction_description'));
    const baseTitle = cleanTitle(get('prime_award_base_transaction_description'));
    if (modification === '0') {
      const total = amountIn(source, line, get, 'total_dollars_obligated');
      yield { line, value: primeRow(parts, baseTitle || title, date, total) };
    }
    yield {
      line,
      value: {
        ...parts.common,
        sourceAwardId: key
          ? `CONT_TX_${key}`.toUpperCase()
          : `${parts.award}_TX_${modification || '-NONE-'}_${get('transaction_number') || '0'}`,
        awardType: 'modification',
        title: title || baseTitle,
        awardDate: date,
        obligatedAmount: action,
        parentSourceAwardId: parts.award,
        details: { amountKind: 'obligation', ...(modification ? { modificationNumber: modification } : {}) },
      },
    };
  }
}

export async function* currentSummaries(source: SourceFile, context: LoadContext<Held>): Out {
  for await (const { line, get } of csvRows(source)) {
    const parts = awardParts(source, line, get, context);
    const dateText = get('award_base_action_date') || get('period_of_performance_start_date');
    const date = dateIn(source, line, 'award_base_action_date', dateText);
    const total = amountIn(source, line, get, 'total_obligated_amount');
    const title = cleanTitle(get('prime_award_base_transaction_description'));
    yield { line, value: primeRow(parts, title, date, total) };
  }
}
