// The eleven keyed dataset routes, in the spec's order.
import { awardsOperations } from './awards/routes.js';
import { cotOperations } from './cot/routes.js';
import { cpiOperations } from './cpi/routes.js';
import { energyOperations } from './energy/routes.js';
import { eventsOperations } from './events/routes.js';
import { execPayOperations } from './exec-pay/routes.js';
import { kpisOperations } from './kpis/routes.js';
import type { DatasetOperation } from './operation.js';

export const OPERATIONS: readonly DatasetOperation[] = [
  ...cpiOperations,
  ...energyOperations,
  ...cotOperations,
  ...awardsOperations,
  ...kpisOperations,
  ...execPayOperations,
  ...eventsOperations,
];

export const OPERATION_BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));
