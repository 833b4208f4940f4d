// The agencies' comma-separated files read by the tests' own rules, not the loaders' readers: an expectation
// taken from our reader would agree with our reader whatever it does.

/** One line: fields in double quotes may hold commas (the CFTC's market names do). */
export function splitLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

/** A header as a key: lower case, each run of other characters than letters, digits and % one underscore. */
export const keyOf = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9%]+/g, '_')
    .replace(/^_+|_+$/g, '');
