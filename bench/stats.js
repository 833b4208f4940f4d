// Summaries of measured times shared by the benchmarks.

/** The value at quantile `q` (0.5, 0.99) of `sorted` (ascending): the nearest rank at or below it. */
export const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
