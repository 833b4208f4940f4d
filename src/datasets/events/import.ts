// The events interchange record: one 8-K (or 8-K/A) filing.
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { writeRevision } from '../../store/revisions.js';
import { CompanyFields, upsertCompany } from '../companies.js';

export const EventRecord = Type.Object(
  {
    ...CompanyFields,
    accessionNumber: Type.String({ pattern: '^[0-9]{10}-[0-9]{2}-[0-9]{6}$' }),
    form: Type.String({ pattern: '^8-K(/A)?$' }),
    filedAt: Type.String({ format: 'date-time', description: 'Acceptance time, UTC.' }),
    filingDate: Type.String({ format: 'date' }),
    docUrl: Type.String({ format: 'uri' }),
    items: Type.Array(Type.String({ pattern: '^[0-9]\\.[0-9]{2}$' }), { minItems: 1 }),
    headline: Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()]),
    summary: Type.Union([Type.String({ minLength: 1, maxLength: 4000 }), Type.Null()]),
    people: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1 }),
          role: Type.String(),
          change: Type.Enum(['appointed', 'departed', 'compensation', 'other']),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type EventRecordValue = Static<typeof EventRecord>;

export const eventsImporter: Importer<EventRecordValue> = {
  dataset: 'events',
  record: EventRecord,
  async write(tx, record, meta) {
    await upsertCompany(tx, record, meta.loadedAt);
    const key = { id: record.accessionNumber };
    return writeRevision(
      tx,
      'events',
      key,
      {
        ...key,
        ticker: record.ticker,
        form: record.form,
        filed_at: new Date(record.filedAt).toISOString(),
        filing_date: record.filingDate,
        doc_url: record.docUrl,
        items: JSON.stringify(record.items),
        headline: record.headline,
        summary: record.summary,
        people: JSON.stringify(record.people),
      },
      meta,
    );
  },
};
