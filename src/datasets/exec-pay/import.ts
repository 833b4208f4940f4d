// The exec-pay interchange record: the CEO's pay from one proxy statement.
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { CompanyFields, upsertCompany } from '../../ingest/sec/companies.js';
import { writeRevision } from '../../store/revisions.js';

const Money = Type.Number({ minimum: 0 });
const OptionalMoney = Type.Union([Money, Type.Null()]);

export const ProxyRecord = Type.Object(
  {
    ...CompanyFields,
    id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Accession number of the proxy, or another stable id.',
    }),
    sourceKind: Type.Optional(
      Type.Enum(['filing', 'ceo-pay-table'], {
        description:
          'Where the figures were read: the proxy itself (the default), or a CEO-pay table compiled from proxies.',
      }),
    ),
    proxyYear: Type.Integer({ minimum: 1900, maximum: 2100 }),
    fiscalYear: Type.Integer({ minimum: 1900, maximum: 2100 }),
    fiscalYearLabel: Type.String({ minLength: 1, maxLength: 40 }),
    filedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When EDGAR accepted the proxy; null where it is not known (a CEO-pay table row without its filing).',
    }),
    meetingDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    ceoName: Type.String({ minLength: 1, maxLength: 200 }),
    ceoTitle: Type.String({ minLength: 1, maxLength: 200 }),
    ceoTotal: Money,
    ceoPriorYearTotal: OptionalMoney,
    payRatio: OptionalMoney,
    medianEmployeePay: OptionalMoney,
  },
  { additionalProperties: false },
);

export type ProxyRecordValue = Static<typeof ProxyRecord>;

export const execPayImporter: Importer<ProxyRecordValue> = {
  dataset: 'exec-pay',
  record: ProxyRecord,
  // A proxy is known from its filing; where its filing time is not known, from the load.
  publishedAt: (record) => (record.filedAt ? new Date(record.filedAt).toISOString() : undefined),
  publishedFrom: 'filing',
  async write(tx, record, meta) {
    await upsertCompany(tx, record, meta.loadedAt);
    const key = { id: record.id };
    return writeRevision(
      tx,
      {
        table: 'exec_pay',
        rowId: 'row_id',
        key,
        row: {
          ...key,
          ticker: record.ticker,
          proxy_year: record.proxyYear,
          fiscal_year: record.fiscalYear,
          fiscal_year_label: record.fiscalYearLabel,
          filed_at: record.filedAt ? new Date(record.filedAt).toISOString() : null,
          meeting_date: record.meetingDate,
          ceo_name: record.ceoName,
          ceo_title: record.ceoTitle,
          ceo_total: record.ceoTotal,
          ceo_prior_year_total: record.ceoPriorYearTotal,
          pay_ratio: record.payRatio,
          median_employee_pay: record.medianEmployeePay,
          source_kind: record.sourceKind ?? 'filing',
        },
      },
      meta,
    );
  },
};
