// cpi data shape (spec: Dataset data shapes, cpi).
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../kernel/schema.js';

const num = Nullable(Type.Number());

export const CpiRow = Type.Object(
  {
    id: Type.String(),
    code: Type.String(),
    label: Type.String(),
    depth: Type.Integer(),
    parent: Nullable(Type.String()),
    pinned: Type.Boolean(),
    derived: Type.Boolean(),
    weight: num,
    change: num,
    annualized3m: num,
    annualized6m: num,
    yoy: num,
    contribution: num,
    contributionYoy: num,
    read: Nullable(Type.String()),
    history: Type.Array(
      Type.Array(Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] }), {
        minItems: 3,
        maxItems: 3,
      }),
      {
        description:
          'Triples [period YYYY-MM, month-on-month change %, year-on-year change %], oldest first.',
      },
    ),
  },
  { title: 'CpiRow' },
);

export const CpiData = Type.Object({
  source: Type.String(),
  generatedAt: Timestamp,
  retrievedAt: Nullable(Timestamp),
  status: Type.String(),
  gaps: Type.Array(Type.String()),
  release: Type.Object({
    period: Nullable(Type.String({ description: 'YYYY-MM' })),
    releasedAt: Nullable(Timestamp),
    weightsPeriod: Nullable(Type.String()),
    nextPeriod: Nullable(Type.String()),
    nextReleaseAt: Nullable(Timestamp),
  }),
  rows: Type.Array(CpiRow),
});
