// Bounded tool results: an answer's list (items, or a dataset's rows) is cut into pages whose compact text stays
// under a budget. A page is the same body with a run of the list's units: an element of the list, or one row of
// an element that has rows (a history item). Page after page, the units in order make the whole answer again.

/**
 * How an answer is cut into pages and written as text: `B` is the answer as written (the REST route's
 * response), `E` an element of the list it is cut along.
 */
export interface Layout<B extends object = object, E extends object = object> {
  /** The list the answer is cut along. */
  list(body: B): readonly E[];
  /** The body with its list replaced. */
  withList(body: B, list: E[]): object;
  /** An element's member that holds its rows (history items), if elements have rows. */
  rows?: string;
  /** Lines before the page's list (column names of a flat table). */
  preamble(body: B): string;
  /** Lines that open an element on a page (an item's head and its columns); '' for a flat table. */
  head(element: E): string;
  /** One line: the element itself (flat), or row `row` of it. */
  line(element: E, row: number | null, body: B): string;
  /** What the whole answer says of itself (status, gaps), added to the result's _meta on every page. */
  summary?(body: B): Record<string, unknown>;
}

/** Where a page starts: an element, and a row within it (0 for elements without rows). */
export interface Position {
  element: number;
  row: number;
}

export interface Page {
  body: object;
  text: string;
  /** Where the next page starts; null on the last page. */
  next: Position | null;
  totals: { elements: number; rows: number };
}

type Unit = { element: number; row: number | null };

function unitsOf(layout: Layout, list: readonly object[]): Unit[] {
  const units: Unit[] = [];
  list.forEach((element, i) => {
    const rows = layout.rows ? Reflect.get(element, layout.rows) : undefined;
    if (Array.isArray(rows) && rows.length > 0)
      for (let j = 0; j < rows.length; j += 1) units.push({ element: i, row: j });
    else units.push({ element: i, row: null });
  });
  return units;
}

/**
 * The page of `body` that starts at `from`: as many units as fit in `budget` bytes of text with `reserve`
 * bytes kept for the closing lines, and at least one unit so that every page moves on.
 */
export function pageOf(layout: Layout, body: object, from: Position, budget: number, reserve: number): Page {
  const list = layout.list(body);
  const units = unitsOf(layout, list);
  const start = Math.max(
    0,
    units.findIndex(
      (u) => u.element > from.element || (u.element === from.element && (u.row ?? 0) >= from.row),
    ),
  );
  const preamble = layout.preamble(body);
  const lines: string[] = preamble ? [preamble] : [];
  let size = Buffer.byteLength(preamble) + reserve;
  let end = start;
  let open = -1;
  for (; end < units.length; end += 1) {
    const unit = units[end]!;
    const element = list[unit.element]!;
    const head = unit.element === open ? '' : layout.head(element);
    const line = layout.line(element, unit.row, body);
    const cost = Buffer.byteLength(head) + Buffer.byteLength(line) + (head ? 2 : 1);
    if (end > start && size + cost > budget) break;
    if (head) lines.push(head);
    lines.push(line);
    size += cost;
    open = unit.element;
  }
  const taken = units.slice(start, end);
  const next = end < units.length ? units[end]! : null;
  return {
    body: layout.withList(body, sliceList(layout, list, taken)),
    text: lines.join('\n'),
    next: next ? { element: next.element, row: next.row ?? 0 } : null,
    totals: { elements: list.length, rows: units.filter((u) => u.row !== null).length },
  };
}

/** The elements the units cover, each with only its rows among them. */
function sliceList(layout: Layout, list: readonly object[], units: Unit[]): object[] {
  const out: object[] = [];
  let i = 0;
  while (i < units.length) {
    const { element } = units[i]!;
    let j = i;
    while (j < units.length && units[j]!.element === element) j += 1;
    const source = list[element]!;
    const first = units[i]!.row;
    const rows: unknown = layout.rows ? Reflect.get(source, layout.rows) : null;
    if (layout.rows && first !== null && Array.isArray(rows)) {
      const last = units[j - 1]!.row ?? first;
      out.push({ ...source, [layout.rows]: rows.slice(first, last + 1) });
    } else out.push(source);
    i = j;
  }
  return out;
}

/** One CSV field: quoted when it holds a comma, a quote or a line break; null and absent are empty. */
export function csv(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: readonly unknown[]) => values.map(csv).join(',');
