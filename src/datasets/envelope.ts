// The response envelope of dataset routes and samples: {data, meta}.
import { type TSchema, Type } from 'typebox';
import { DateString, Nullable } from '../kernel/schema.js';

export const SourceRef = Type.Object({
  id: Type.String(),
  attribution: Type.String(),
  licence: Type.String(),
});

export const Meta = Type.Object({
  dataset: Type.String({ description: 'Dataset id.' }),
  asOf: Nullable(
    Type.String({
      description:
        'ISO 8601 timestamp: the newest publication time among the records the answer holds (a filing’s acceptance, a release): ' +
        'never after readAsOf; null when none is known, and in samples.',
    }),
  ),
  knownFrom: Nullable(
    Type.String({
      description:
        'Where asOf came from: published (given with its file), calendar (the agency’s release calendar), ' +
        'filing (an EDGAR acceptance), record (a date the source states) or load; null where not recorded.',
    }),
  ),
  readAsOf: Nullable(
    Type.String({
      description:
        'ISO 8601 timestamp: the instant the answer reads the store as known at: the end of the asOf day asked (UTC), else the ' +
        'time the store was read. Null in samples.',
    }),
  ),
  newestPeriod: Nullable(
    Type.String({
      description:
        'The newest period the records describe: a date (YYYY-MM-DD; a report, week, filing or award date, or ' +
        'a period end), a month (YYYY-MM) on cpi, a fiscal year (YYYY) on exec-pay. Null when none.',
    }),
  ),
  source: Type.Array(SourceRef),
  historyStarts: Nullable(DateString),
  coverage: Nullable(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'What the answer covers. On the cot, energy-inventories and cpi boards and a cot contract: records, ' +
          'firstPeriod, lastPeriod, lastLoad, nextRelease, releasesSince, stale (and groups on energy), as the ' +
          'catalog’s Coverage — a cot answer judged by its report family alone; with asOf, as they stood at the ' +
          'end of that day. Stale answers are partial with a gap that begins "stale:".',
      },
    ),
  ),
  lastUpdated: Type.Null({ description: 'Always null: the read model has no update time.' }),
  sample: Type.Boolean(),
  note: Type.Optional(Type.String({ description: 'On samples: marks the rows as synthetic.' })),
  disclaimer: Type.Optional(Type.String({ description: 'On the cpi sample: who vouches for what.' })),
});

export type MetaValue = {
  dataset: string;
  asOf: string | null;
  knownFrom: string | null;
  readAsOf: string | null;
  newestPeriod: string | null;
  source: { id: string; attribution: string; licence: string }[];
  historyStarts: string | null;
  coverage: Record<string, unknown> | null;
  lastUpdated: null;
  sample: boolean;
  note?: string;
  disclaimer?: string;
};

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ data, meta: Meta });
}

export interface EnvelopeValue<D> {
  data: D;
  meta: MetaValue;
}

/** meta for a response read from the store: when it was read as of, the newest publication and period held. */
export function storedMeta(
  dataset: string,
  source: MetaValue['source'],
  extra: Pick<MetaValue, 'readAsOf'> &
    Partial<Pick<MetaValue, 'asOf' | 'knownFrom' | 'newestPeriod' | 'historyStarts' | 'coverage'>>,
): MetaValue {
  return {
    dataset,
    asOf: extra.asOf ?? null,
    knownFrom: extra.asOf ? (extra.knownFrom ?? null) : null,
    readAsOf: extra.readAsOf,
    newestPeriod: extra.newestPeriod ?? null,
    source,
    historyStarts: extra.historyStarts ?? null,
    coverage: extra.coverage ?? null,
    lastUpdated: null,
    sample: false,
  };
}
