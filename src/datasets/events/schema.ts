// events data shapes (spec: Dataset data shapes, events).
import { Type } from 'typebox';
import { Company } from '../../ingest/sec/companies.js';
import { DateString, Nullable, Timestamp } from '../../kernel/schema.js';

export const Event = Type.Object(
  {
    id: Type.String(),
    ticker: Type.String(),
    company: Type.String(),
    filedAt: Timestamp,
    filingDate: DateString,
    form: Type.String({ examples: ['8-K'] }),
    docUrl: Type.String(),
    items: Type.Array(Type.String()),
    labels: Type.Array(Type.String()),
    kinds: Type.Array(Type.String(), {
      description:
        'Categories of the items: earnings, leadership, agreement, acquisition_or_disposal, financing, restructuring, auditor, vote, cybersecurity, regulation_fd, other.',
    }),
    material: Type.Boolean(),
    headline: Type.String(),
    summary: Nullable(Type.String()),
    people: Type.Array(
      Type.Object({
        name: Type.String(),
        role: Type.String({ examples: ['Chief Financial Officer'] }),
        change: Type.String({ description: 'appointed, departed, compensation or other' }),
        quote: Nullable(Type.String({ description: 'The name and role as the document writes them.' })),
        quoteOffset: Nullable(
          Type.Integer({
            description:
              "Where the quote starts in the primary document's text: markup removed, entities decoded, white space collapsed to single spaces.",
          }),
        ),
      }),
      { description: 'People the filing names (Item 5.02 appointments and departures, for example).' },
    ),
    read: Type.Boolean(),
  },
  { title: 'Event' },
);

export const EventsData = Type.Object({ company: Company, events: Type.Array(Event) });
