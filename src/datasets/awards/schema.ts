// awards data shapes (spec: Dataset data shapes, awards). Element shapes of the summary arrays are open.
import { Type } from 'typebox';
import { DateString, Nullable, Timestamp } from '../envelope.js';

const Open = Type.Array(Type.Object({}, { additionalProperties: true }));

export const AwardRow = Type.Object({
  id: Type.String({ description: '40 lowercase hex characters.' }),
  revisionId: Type.String({ description: '40 hex characters; changes when the record changes.' }),
  source: Type.String(),
  sourceAwardId: Type.String(),
  jurisdiction: Type.String(),
  awardType: Type.Enum(['prime', 'subaward', 'modification', 'notice']),
  title: Type.String(),
  awardDate: DateString,
  currency: Type.String(),
  obligatedAmount: Type.String({ description: 'Exact decimal as a string.' }),
  recipient: Type.Object({ name: Type.String() }),
  agency: Type.Object({ name: Type.String() }),
  sourceUrl: Type.String(),
  observedAt: Timestamp,
  entity: Nullable(Type.Object({}, { additionalProperties: true })),
  revenueComparison: Nullable(Type.Object({}, { additionalProperties: true })),
});

export const AwardsData = Type.Object({
  generatedAt: Timestamp,
  asOf: Nullable(Timestamp),
  status: Type.String(),
  access: Type.String(),
  rows: Type.Array(AwardRow),
  nextCursor: Nullable(Type.String()),
  agencies: Open,
  sectors: Open,
  leaders: Open,
  history: Open,
  alerts: Open,
  sources: Open,
  coverage: Open,
  gaps: Type.Array(Type.String()),
  locked: Type.Boolean(),
});

export const AwardDetailData = Type.Object({
  award: Nullable(AwardRow),
  revisions: Type.Array(AwardRow),
  nextRevisionsCursor: Nullable(Type.String()),
});
