// USAspending's bulk download CSV in the legacy (pre-2017) layout: one row per contract action, 225 columns.
// An award's base action (modification 0) is its prime row and later actions are modification rows under
// it; each row's amount is that action's obligation (amountKind action_obligation), not the award's total.
// The award is named as USAspending names it today (CONT_AWD_{piid}_{agency}_{idv piid}_{idv agency}), so
// rows meet the API's records of the same award.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { csvFields, csvRows, SourceError, type SourceFile } from '../../../ingest/source.js';
import { entityOf } from '../entity.js';
import type { AwardRecordValue } from '../import.js';
import { naicsSector } from '../sectors.js';
import { cleanTitle, type Held } from './usaspending.js';

const REQUIRED = [
  'unique_transaction_id',
  'dollarsobligated',
  'maj_agency_cat',
  'signeddate',
  'descriptionofcontractrequirement',
  'vendorname',
  'agencyid',
  'piid',
  'modnumber',
  'idvagencyid',
  'idvpiid',
] as const;

export const LEGACY_BULK: FileKind = {
  name: 'USAspending bulk download CSV, legacy layout (unique_transaction_id, dollarsobligated, piid, …)',
  recognises: (head) => {
    const header = csvFields(head.split(/\r?\n/)[0] ?? '');
    return REQUIRED.every((c) => header.includes(c));
  },
};

/** "2044: UNITED STATES MINT" → code 2044 and its name. */
const coded = (text: string) => {
  const m = /^\s*([0-9A-Z]+)\s*:\s*(.*)$/.exec(text);
  return m ? { code: m[1]!, name: m[2]!.trim() } : { code: text.trim(), name: '' };
};

/** 4537.8500 → 4537.85: cents kept, the rest of the zeros dropped. */
const amountOf = (text: string) => {
  const m = /^(-?\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  return fraction ? `${m[1]}.${fraction.length < 2 ? fraction.padEnd(2, '0') : fraction}` : m[1]!;
};

/** M/D/YYYY → YYYY-MM-DD; null for anything else. */
export const slashedDate = (text: string) => {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  return m ? `${m[3]}-${(m[1]!).padStart(2, '0')}-${(m[2]!).padStart(2, '0')}` : null;
};

export async function* legacyBulk(
  source: SourceFile,
  context: LoadContext<Held>,
): AsyncGenerator<{ line: number; value: AwardRecordValue }> {
  const { names } = context.prepared;
  for await (const { line, get } of csvRows(source)) {
    const amount = amountOf(get('dollarsobligated'));
    const date = slashedDate(get('signeddate'));
    const vendor = get('vendorname');
    const agency = coded(get('maj_agency_cat')).name;
    if (amount === null)
      throw new SourceError(
        source.name,
        line,
        `dollarsobligated "${get('dollarsobligated')}" is not an amount`,
      );
    if (!date) throw new SourceError(source.name, line, `signeddate "${get('signeddate')}" is not M/D/YYYY`);
    if (!vendor || !agency)
      throw new SourceError(source.name, line, 'a row needs vendorname and maj_agency_cat');
    const office = coded(get('agencyid'));
    const idvAgency = coded(get('idvagencyid')).code || '-NONE-';
    const award = `CONT_AWD_${get('piid')}_${office.code}_${get('idvpiid') || '-NONE-'}_${get('idvpiid') ? idvAgency : '-NONE-'}`;
    const base = get('modnumber') === '0';
    const entity = entityOf(names, vendor, get('mod_parent') || null);
    const modified = slashedDate(get('last_modified_date'));
    yield {
      line,
      value: {
        source: 'usaspending',
        sourceAwardId: base ? award : get('unique_transaction_id'),
        jurisdiction: 'US',
        awardType: base ? 'prime' : 'modification',
        title: cleanTitle(get('descriptionofcontractrequirement')),
        awardDate: date,
        currency: 'USD',
        obligatedAmount: amount,
        recipient: { name: vendor.slice(0, 500) },
        agency: { name: agency },
        sector: naicsSector(get('principalnaicscode')),
        ticker: entity?.ticker ?? null,
        parentSourceAwardId: base ? null : award,
        sourceUrl: `https://www.usaspending.gov/award/${award}`,
        observedAt: context.now.toISOString(),
        entity: entity ? { ...entity } : null,
        revenueComparison: null,
        details: {
          amountKind: 'action_obligation',
          ...(office.name ? { subAgency: office.name } : {}),
          ...(base ? {} : { modificationNumber: get('modnumber') }),
          ...(get('idvpiid') ? { parentAward: `CONT_IDV_${get('idvpiid')}_${idvAgency}` } : {}),
          ...(modified ? { lastModified: modified } : {}),
        },
      },
    };
  }
}
