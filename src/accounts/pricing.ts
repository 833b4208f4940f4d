// Credit prices (spec: Credit call types, Dataset routes). Cost = call type credits x route multiplier.
export const CALL_TYPE_CREDITS = {
  lookup: 1,
  history: 2,
  search: 2,
  evidence: 5,
  bulk: 25,
  change: 1,
} as const;

export type CallType = keyof typeof CALL_TYPE_CREDITS;

export interface Price {
  callType: CallType;
  multiplier: number;
  credits: number;
}

export function price(callType: CallType, multiplier: number): Price {
  return { callType, multiplier, credits: CALL_TYPE_CREDITS[callType] * multiplier };
}

export const FREE: Price = { callType: 'lookup', multiplier: 0, credits: 0 };

/** A fixed price for every call of a route. */
export function fixed(callType: CallType, multiplier: number): () => Price {
  const p = price(callType, multiplier);
  return () => p;
}

/** kpis.company and guidance.company: history price when a range (from or to) is asked for. */
export function rangePriced(query: { from?: string; to?: string }): Price {
  return query.from !== undefined || query.to !== undefined ? price('history', 2) : price('lookup', 2);
}
