// The kpis-guidance dataset's own parameters: a metric and its basis.
import { Type } from 'typebox';

export const KPI_PARAMS = {
  metric: Type.String({ pattern: '^[a-z0-9_]{1,80}$', description: 'Metric id: 1-80 of a-z 0-9 _.' }),
  basis: Type.Enum(['reported', 'adjusted', 'constant_currency', 'organic'], { description: 'Basis.' }),
};
