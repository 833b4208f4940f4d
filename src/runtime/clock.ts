// The real clock: the one place the product reads the time of day. Everything else takes `deps.clock` (or this,
// where a thread of its own has no Deps), so that a test can stand it anywhere.
export const systemClock = (): Date => new Date();
