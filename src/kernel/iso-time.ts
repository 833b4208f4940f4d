// ISO-8601 text of a time, as the store keeps times. Date#toISOString costs about 2 µs here; requests a
// millisecond apart share the last answer, so the hot path formats a time about once per millisecond.
let lastMs = Number.NaN;
let lastText = '';

export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastText = date.toISOString();
    lastMs = ms;
  }
  return lastText;
}
