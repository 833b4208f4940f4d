// The events interchange record: one 8-K (or 8-K/A) filing. Loaders of EDGAR's files write it too: the
// submissions JSON knows the filing (form, acceptance time, items, document), the filing's documents know
// what it says (headline, summary, people). Each adds to what the other stored, so the files may come in
// any order and loading either again changes nothing.
import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Importer } from '../../ingest/import.js';
import { CompanyFields, upsertCompany } from '../../ingest/sec/companies.js';
import { contentHash, writeRevision } from '../../store/revisions.js';
import type { EventsTable } from './tables.js';

export const Person = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    role: Type.String(),
    change: Type.Enum(['appointed', 'departed', 'compensation', 'other']),
    quote: Type.Optional(Type.String({ minLength: 1 })),
    quoteOffset: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

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
    people: Type.Array(Person),
    dated: Type.Optional(
      Type.Enum(['accepted', 'cover'], {
        description:
          'accepted (the default): filedAt is the acceptance time; cover: only the cover date was known (a ' +
          'filing document read alone), so a filing already held keeps its own time, items and address.',
      }),
    ),
  },
  { additionalProperties: false },
);

export type EventRecordValue = Static<typeof EventRecord>;

type Row = Omit<
  Selectable<EventsTable>,
  | 'row_id'
  | 'content_hash'
  | 'revision'
  | 'is_current'
  | 'source'
  | 'loaded_at'
  | 'known_at'
  | 'known_from'
  | 'superseded_at'
>;

/** The row to hold: the record, over what is held of the same filing where the record does not know it. */
export function mergedRow(record: EventRecordValue, held: Row | undefined): Row {
  const row: Row = {
    id: record.accessionNumber,
    ticker: record.ticker,
    form: record.form,
    filed_at: new Date(record.filedAt).toISOString(),
    filing_date: record.filingDate,
    doc_url: record.docUrl,
    items: JSON.stringify(record.items),
    headline: record.headline,
    summary: record.summary,
    people: JSON.stringify(record.people),
  };
  if (!held) return row;
  const filing =
    record.dated === 'cover'
      ? {
          form: held.form,
          filed_at: held.filed_at,
          filing_date: held.filing_date,
          doc_url: held.doc_url,
          items: held.items,
        }
      : {};
  const said = {
    headline: row.headline ?? held.headline,
    summary: row.summary ?? held.summary,
    people: record.people.length ? row.people : held.people,
  };
  return { ...row, ...filing, ...said };
}

export const eventsImporter: Importer<EventRecordValue> = {
  dataset: 'events',
  record: EventRecord,
  // A filing is known from its acceptance by EDGAR.
  publishedAt: (record) => new Date(record.filedAt).toISOString(),
  publishedFrom: 'filing',
  async write(tx, record, meta) {
    await upsertCompany(tx, record, meta.loadedAt);
    const held = await tx
      .selectFrom('events')
      .select([
        'id',
        'ticker',
        'form',
        'filed_at',
        'filing_date',
        'doc_url',
        'items',
        'headline',
        'summary',
        'people',
      ])
      .where('id', '=', record.accessionNumber)
      .where('is_current', '=', 1)
      .executeTakeFirst();
    const row = mergedRow(record, held);
    // The hash of what is held, so a file that adds nothing new is unchanged whichever file came first.
    return writeRevision(
      tx,
      { table: 'events', rowId: 'row_id', key: { id: row.id }, row: { ...row } },
      { ...meta, hash: contentHash(row) },
    );
  },
};
