// Credit periods. A period runs from its start to the next first-of-month, 00:00 UTC. A plan change starts
// a new period at that moment; later periods are whole calendar months.

export interface Period {
  start: string;
  end: string;
}

export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** The period that starts at `start`. */
export function periodFrom(start: Date): Period {
  return { start: start.toISOString(), end: nextMonthStart(start).toISOString() };
}

/** The calendar-month period containing `now`, for an account whose previous period ended before it. */
export function periodContaining(now: Date): Period {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return periodFrom(start);
}
