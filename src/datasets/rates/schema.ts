// treasury-rates data shapes.
import { Type } from 'typebox';
import { DateString, Nullable } from '../../kernel/schema.js';

const Spread = Nullable(
  Type.Object({
    long: Type.String(),
    short: Type.String(),
    bp: Type.Number({ description: 'long − short, in basis points.' }),
    inverted: Type.Boolean({ description: 'The short rate above the long one.' }),
  }),
);

const Changes = Type.Object(
  {
    day: Nullable(Type.Number()),
    week: Nullable(Type.Number()),
    month: Nullable(Type.Number()),
    year: Nullable(Type.Number()),
  },
  {
    description:
      'Change in basis points against the curves of previous; null where that day lacks the tenor.',
  },
);

export const CurveData = Type.Object({
  source: Type.String(),
  status: Type.Enum(['available', 'partial']),
  gaps: Type.Array(Type.String()),
  date: DateString,
  previous: Type.Object(
    {
      day: Nullable(DateString),
      week: Nullable(DateString),
      month: Nullable(DateString),
      year: Nullable(DateString),
    },
    {
      description:
        'The day each change compares with: the curve before, and the last on or before a week, month, year ' +
        'earlier; null where none is held within four days of the day it stands for (the change left out, and ' +
        'named in gaps).',
    },
  ),
  spreads: Type.Object({ '2s10s': Spread, '3m10y': Spread }),
  tenors: Type.Array(
    Type.Object({
      tenor: Type.String(),
      years: Type.Number(),
      yield: Type.Number({ description: 'Par yield, percent.' }),
      changeBp: Changes,
    }),
  ),
});

export const HistoryData = Type.Object({
  source: Type.String(),
  status: Type.Enum(['available', 'partial']),
  gaps: Type.Array(Type.String()),
  series: Type.String(),
  tenor: Type.String(),
  unit: Type.String(),
  rows: Type.Array(Type.Object({ date: DateString, value: Type.Number() })),
});
