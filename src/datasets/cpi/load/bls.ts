// BLS CPI files: the item hierarchy (cu.item), the series catalogue (cu.series), relative importance
// tables, and monthly index values from cu.data flat files, BLS API v2 JSON or FRED-style CSVs of the same
// series. The kind of file is told from its first line. Each becomes cpi interchange records.
import type { Kysely } from 'kysely';
import type { LoadContext } from '../../../ingest/run.js';
import {
  CutShort,
  csvFields,
  headerWidth,
  SourceError,
  type SourceFile,
  type SourceLine,
} from '../../../ingest/source.js';
import type { Database } from '../../../store/schema.js';
import type { CpiRecordValue } from '../import.js';

type Out = AsyncGenerator<{ line: number; value: CpiRecordValue }>;

/** FRED's own ids for CPI-U aggregates: (seasonally adjusted | not) -> BLS item code. */
const FRED_ALIASES: Record<string, [string, 'S' | 'U']> = {};
for (const [stem, item] of Object.entries({
  CPIAUC: 'SA0',
  CPILFE: 'SA0L1E',
  CPIULF: 'SA0L1',
  CPILEG: 'SA0LE',
  CPIFAB: 'SAF',
  CPIUFD: 'SAF1',
  CPIENG: 'SA0E',
  CPIHOS: 'SAH',
  CPIAPP: 'SAA',
  CPITRN: 'SAT',
  CPIMED: 'SAM',
  CPIREC: 'SAR',
  CPIEDU: 'SAE',
  CPIOGS: 'SAG',
})) {
  FRED_ALIASES[`${stem}SL`] = [item, 'S'];
  FRED_ALIASES[`${stem}NS`] = [item, 'U'];
}

/** The item and adjustment of a CPI-U U.S. city average monthly series id, or null for any other series. */
export function seriesOf(id: string): { code: string; seasonal: 'S' | 'U' } | null {
  const alias = FRED_ALIASES[id];
  if (alias) return { code: alias[0], seasonal: alias[1] };
  const match = /^CU([SU])R0000([A-Z0-9]+)$/.exec(id.trim());
  return match ? { code: match[2]!, seasonal: match[1] as 'S' | 'U' } : null;
}

function tsv(text: string): string[] {
  return text.split('\t').map((f) => f.trim());
}

async function* items(
  source: SourceFile,
  header: string[],
  rest: AsyncGenerator<{ line: number; text: string }>,
): Out {
  const col = (name: string) => header.indexOf(name);
  const rows: { line: number; code: string; label: string; depth: number; sort: number }[] = [];
  for await (const { line, text } of rest) {
    if (!text.trim()) continue;
    const f = tsv(text);
    const depth = Number(f[col('display_level')]);
    const sort = Number(f[col('sort_sequence')]);
    const code = f[col('item_code')] ?? '';
    if (!/^[A-Z0-9]{2,12}$/.test(code) || !Number.isInteger(depth) || !Number.isInteger(sort)) {
      throw new SourceError(
        source.name,
        line,
        'expected item_code, item_name, display_level, selectable, sort_sequence',
      );
    }
    rows.push({ line, code, label: f[col('item_name')] ?? code, depth, sort });
  }
  // The parent of an item is the nearest item before it, in sort order, one level up.
  rows.sort((a, b) => a.sort - b.sort);
  const stack: { code: string; depth: number }[] = [];
  for (const r of rows) {
    while (stack.length && (stack.at(-1) as { depth: number }).depth >= r.depth) stack.pop();
    const parent = r.depth === 0 ? null : (stack.at(-1)?.code ?? null);
    stack.push({ code: r.code, depth: r.depth });
    yield {
      line: r.line,
      value: { type: 'item', code: r.code, label: r.label, depth: r.depth, parent, sortSequence: r.sort },
    };
  }
}

async function* catalogue(header: string[], rest: AsyncGenerator<{ line: number; text: string }>): Out {
  const col = (name: string) => header.indexOf(name);
  for await (const { line, text } of rest) {
    if (!text.trim()) continue;
    const f = tsv(text);
    const id = f[col('series_id')] ?? '';
    const series = seriesOf(id);
    if (!series || f[col('periodicity_code')] !== 'R' || f[col('base_code')] !== 'S') continue;
    const period = (year?: string, p?: string) =>
      year && p && /^M(0[1-9]|1[0-2])$/.test(p) ? `${year}-${p.slice(1)}` : null;
    yield {
      line,
      value: {
        type: 'series',
        id,
        code: series.code,
        seasonal: series.seasonal,
        title: f[col('series_title')] ?? id,
        firstPeriod: period(f[col('begin_year')], f[col('begin_period')]),
        lastPeriod: period(f[col('end_year')], f[col('end_period')]),
      },
    };
  }
}

function indexRecord(
  source: SourceFile,
  line: number,
  id: string,
  period: string,
  value: string,
): CpiRecordValue | null {
  const series = seriesOf(id);
  if (!series) return null;
  const v = value.trim();
  if (v === '' || v === 'NA' || v === '.' || v === '-') return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new SourceError(source.name, line, `index value "${value}" is not a positive number`);
  return { type: 'index', code: series.code, seasonal: series.seasonal, period, value: n };
}

async function* flatData(
  source: SourceFile,
  header: string[],
  rest: AsyncGenerator<SourceLine>,
  context: LoadContext,
): Out {
  const col = (name: string) => header.indexOf(name);
  const unpublished = new Set<string>();
  // A row of BLS's flat files always has every field, its footnotes empty where there are none.
  const cut = new CutShort(source.name, headerWidth(header));
  for await (const row of rest) {
    const { line, text } = row;
    if (!text.trim()) continue;
    const f = tsv(text);
    cut.check(row, f);
    const p = f[col('period')] ?? '';
    if (!/^M(0[1-9]|1[0-2])$/.test(p)) continue; // M13 is the annual average
    // "-" (with a footnote) marks a month BLS did not collect, such as October 2025: a missing value.
    if ((f[col('value')] ?? '').trim() === '-' && seriesOf(f[col('series_id')] ?? '')) {
      unpublished.add(`${f[col('year')]}-${p.slice(1)}`);
    }
    const record = indexRecord(
      source,
      line,
      f[col('series_id')] ?? '',
      `${f[col('year')]}-${p.slice(1)}`,
      f[col('value')] ?? '',
    );
    if (record) yield { line, value: record };
  }
  if (unpublished.size) {
    context.notes.push(
      `no value published for ${[...unpublished].sort().join(', ')} (marked "-"): left missing`,
    );
  }
}

async function* fred(
  source: SourceFile,
  header: string[],
  rest: AsyncGenerator<{ line: number; text: string }>,
): Out {
  const id = header[1] ?? '';
  if (!seriesOf(id))
    throw new SourceError(
      source.name,
      1,
      `"${id}" is not a CPI-U U.S. city average series this loader knows`,
    );
  for await (const { line, text } of rest) {
    if (!text.trim()) continue;
    const [date = '', value = ''] = csvFields(text);
    if (!/^\d{4}-\d{2}-01$/.test(date))
      throw new SourceError(source.name, line, `date "${date}" is not YYYY-MM-01`);
    const record = indexRecord(source, line, id, date.slice(0, 7), value);
    if (record) yield { line, value: record };
  }
}

async function* apiJson(
  source: SourceFile,
  first: string,
  rest: AsyncGenerator<{ line: number; text: string }>,
): Out {
  let text = first;
  for await (const l of rest) text += `\n${l.text}`;
  let body: {
    status?: string;
    Results?: { series?: { seriesID: string; data: { year: string; period: string; value: string }[] }[] };
  };
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new SourceError(source.name, null, `not JSON: ${(error as Error).message}`);
  }
  if (body.status !== 'REQUEST_SUCCEEDED' || !Array.isArray(body.Results?.series)) {
    throw new SourceError(
      source.name,
      null,
      `not a successful BLS API v2 response (status ${body.status ?? 'missing'})`,
    );
  }
  let n = 0;
  for (const series of body.Results.series) {
    for (const point of series.data ?? []) {
      n += 1;
      if (!/^M(0[1-9]|1[0-2])$/.test(point.period)) continue;
      const record = indexRecord(
        source,
        n,
        series.seriesID,
        `${point.year}-${point.period.slice(1)}`,
        point.value,
      );
      if (record) yield { line: n, value: record };
    }
  }
}

/** A name as the BLS's tables vary it: case, quotes, spaces, and the serial comma ("swimwear, and"). */
function normalName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/,\s+and\b/g, ' and')
    .replace(/\s+/g, ' ')
    .trim();
}

async function* weights(
  source: SourceFile,
  rest: AsyncGenerator<{ line: number; text: string }>,
  context: LoadContext<KnownItems>,
): Out {
  const known = context.prepared;
  if (known.length === 0)
    throw new SourceError(
      source.name,
      null,
      'load the item hierarchy (cu.item) first: weights are matched to items by name',
    );
  // Every name an item has had in the lists loaded (the BLS renames items: Housing at school, excluding board
  // is Lodging while at school since 2026): a table of an earlier December names it as it was named then.
  const byName = new Map<string, string | null>();
  for (const k of known) {
    const name = normalName(k.label);
    const held = byName.get(name);
    byName.set(name, held === undefined || held === k.item_code ? k.item_code : null); // null: ambiguous
  }
  const unmatched = new Set<string>();
  let blank = 0;
  for await (const { line, text } of rest) {
    if (!text.trim()) continue;
    const [name = '', weight = '', year = ''] = csvFields(text);
    // A blank cell is a weight BLS did not publish: unknown, not zero. Nothing is recorded for it.
    if (weight.trim() === '' && /^\d{4}$/.test(year)) {
      blank += 1;
      continue;
    }
    const w = Number(weight);
    if (!/^\d{4}$/.test(year) || !Number.isFinite(w))
      throw new SourceError(source.name, line, 'expected item_name,weight,year_weight');
    const code = byName.get(normalName(name));
    if (!code) {
      unmatched.add(name);
      continue;
    }
    // year_weight is the year the weights apply to: the table of the December before it.
    yield { line, value: { type: 'weight', code, weightsPeriod: `${Number(year) - 1}-12`, weight: w } };
  }
  if (unmatched.size)
    context.notes.push(`${unmatched.size} item names matched no item of cu.item and were left out`);
  if (blank) context.notes.push(`${blank} weights are blank at the source: left unknown, not recorded`);
}

/** The items held, under every label each has had: the weights file is matched to them by name. */
export type KnownItems = { item_code: string; label: string }[];

export function knownItems(db: Kysely<Database>): Promise<KnownItems> {
  return db.selectFrom('cpi_items').select(['item_code', 'label']).distinct().execute();
}

export async function* blsRecords(source: SourceFile, context: LoadContext<KnownItems>): Out {
  const lines = source.lines();
  const first = await lines.next();
  if (first.done) throw new SourceError(source.name, null, 'the file is empty');
  const headerText = first.value.text.replace(/^\uFEFF/, '');
  if (headerText.trimStart().startsWith('{')) return yield* apiJson(source, headerText, lines);
  const tabbed = tsv(headerText);
  if (tabbed.includes('item_code') && tabbed.includes('display_level'))
    return yield* items(source, tabbed, lines);
  if (tabbed.includes('series_id') && tabbed.includes('area_code')) return yield* catalogue(tabbed, lines);
  if (tabbed.includes('series_id') && tabbed.includes('period') && tabbed.includes('value')) {
    return yield* flatData(source, tabbed, lines, context);
  }
  const csv = csvFields(headerText).map((f) => f.trim());
  if (csv[0] === 'item_name' && csv[1] === 'weight') return yield* weights(source, lines, context);
  if (csv.length === 2 && (csv[0] === 'observation_date' || csv[0] === 'Date' || csv[0] === 'DATE')) {
    return yield* fred(source, csv, lines);
  }
  throw new SourceError(
    source.name,
    1,
    'not a BLS CPI file this loader reads (cu.item, cu.series, cu.data, relative importance, BLS API JSON, FRED CSV)',
  );
}
