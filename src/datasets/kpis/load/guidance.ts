// Guidance in an earnings release (EX-99.1): the figures of its outlook section — table rows ("Total revenue
// $4.75 billion to $4.78 billion") and sentences ("we expect revenue of $24.0 billion, plus or minus 2%") —
// each with the period its caption or sentence names. Ranges keep both ends and their midpoint; approximate
// figures ("~$1.70 billion", "approximately 21.5%") and point figures keep the figure.

export interface Period {
  kind: 'quarter' | 'year';
  fiscalYear: number;
  fiscalQuarter: number | null;
}

export interface Guided {
  metricId: string;
  label: string;
  basis: 'reported' | 'adjusted';
  period: Period;
  low: number | null;
  high: number | null;
  value: number;
  unit: string;
  currency: string | null;
  /** The words that state it, as the text has them. */
  quote: string;
}

const ORDINAL: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

/** The period a caption or sentence names: "second quarter fiscal year 2023", "Q2 FY2023", "fiscal 2023". */
export function periodNamed(text: string): Period | null {
  const quarter =
    /\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+)?(?:year\s+)?(\d{4})\b/i.exec(
      text,
    ) ?? /\bQ([1-4])\s*(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)(\d{4})\b/i.exec(text);
  if (quarter) {
    const q = ORDINAL[quarter[1]!.toLowerCase()] ?? Number(quarter[1]);
    return { kind: 'quarter', fiscalYear: Number(quarter[2]), fiscalQuarter: q };
  }
  const year = /\b(?:fiscal\s+(?:year\s+)?|FY\s?)(\d{4})\b/i.exec(text);
  return year ? { kind: 'year', fiscalYear: Number(year[1]), fiscalQuarter: null } : null;
}

const NUMBER = '(\\d[\\d,]*(?:\\.\\d+)?)';
const SCALE = '(?:\\s*(billion|million|thousand|bn|mn|%))?';
const AMOUNT = `(~|approximately\\s+|about\\s+|around\\s+)?(\\$\\s?)?${NUMBER}${SCALE}`;
const RANGE = new RegExp(`${AMOUNT}\\s*(?:to|-|–|—)\\s*(\\$\\s?)?${NUMBER}${SCALE}`, 'i');
const PLUS_MINUS = new RegExp(`(\\$\\s?)?${NUMBER}${SCALE},?\\s+plus or minus\\s+${NUMBER}\\s*%`, 'i');
const SINGLE = new RegExp(AMOUNT, 'i');
const FACTOR: Record<string, number> = { billion: 1e9, bn: 1e9, million: 1e6, mn: 1e6, thousand: 1e3 };

const num = (text: string) => Number(text.replace(/,/g, ''));

/** A figure's unit: percent, money (per share when the metric is), or a count. */
function unitOf(dollar: boolean, scale: string | undefined, perShare: boolean) {
  if (scale === '%') return { unit: 'percent', currency: null };
  if (dollar) return { unit: perShare ? 'USD/share' : 'USD', currency: 'USD' };
  return { unit: 'count', currency: null };
}

/** The value stated in `text`: a range, a figure plus or minus a percentage, or one figure. */
export function valueIn(text: string, perShare: boolean) {
  const pm = PLUS_MINUS.exec(text);
  if (pm) {
    const [, dollar, n, scale, pct] = pm;
    const point = num(n as string) * (FACTOR[(scale ?? '').toLowerCase()] ?? 1);
    const spread = (point * num(pct as string)) / 100;
    return {
      low: point - spread,
      high: point + spread,
      value: point,
      quote: pm[0],
      ...unitOf(!!dollar, scale?.toLowerCase(), perShare),
    };
  }
  const range = RANGE.exec(text);
  if (range) {
    const [, , dollarA, a, scaleA, dollarB, b, scaleB] = range;
    const scale = (scaleB ?? scaleA)?.toLowerCase();
    const factor = FACTOR[scale ?? ''] ?? 1;
    const low = num(a as string) * (FACTOR[(scaleA ?? scaleB ?? '').toLowerCase()] ?? factor);
    const high = num(b as string) * factor;
    return {
      low,
      high,
      value: (low + high) / 2,
      quote: range[0],
      ...unitOf(!!(dollarA ?? dollarB), scale, perShare),
    };
  }
  const single = SINGLE.exec(text);
  if (!single) return null;
  const [, , dollar, n, scale] = single;
  const value = num(n as string) * (FACTOR[(scale ?? '').toLowerCase()] ?? 1);
  return {
    low: null,
    high: null,
    value,
    quote: single[0].trim(),
    ...unitOf(!!dollar, scale?.toLowerCase(), perShare),
  };
}

const ALIASES: [RegExp, string][] = [
  [/^(total\s+)?revenues?$/i, 'revenue'],
  [/^(diluted\s+)?(earnings per share|eps)$/i, 'eps'],
  [/^(effective\s+)?tax rate$/i, 'tax_rate'],
  [/^gross margin$/i, 'gross_margin'],
  [/^operating margin$/i, 'operating_margin'],
];

/** A metric id from a row's label: the common ones by name, the rest as their words. */
export function metricOf(label: string): string {
  const clean = label.replace(/\s*\d+$/, '').trim();
  for (const [pattern, id] of ALIASES) if (pattern.test(clean)) return id;
  return clean
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 80);
}

const HEADING = /^(financial targets|outlook|guidance|business outlook|financial outlook)\b/i;
const CAPTION = /(target|outlook|guidance|expect)s?\b.*:$/i;
const BASIS = /\b(Non-GAAP|GAAP):\s*/g;

/** A heading that ends an outlook section: a short title-case line without figures. */
const isHeading = (b: string) =>
  b.split(' ').length <= 8 &&
  !/[\d$%:]/.test(b) &&
  b.split(' ').filter((w) => /^[A-Z]/.test(w)).length * 2 >= b.split(' ').length;

/** The guidance in a release's blocks of text (see text.ts of the events dataset). */
export function guidanceIn(blocks: readonly string[]): Guided[] {
  const out: Guided[] = [];
  const start = blocks.findIndex((b) => HEADING.test(b) && b.split(' ').length <= 6);
  if (start < 0) return out;
  let period: Period | null = periodNamed(blocks[start + 1] ?? '');
  let label: string | null = null;
  for (const block of blocks.slice(start + 1)) {
    if (isHeading(block) && out.length > 0) break;
    if (CAPTION.test(block)) {
      period = periodNamed(block) ?? period;
      continue;
    }
    if (!period) continue;
    const parts = block.split(BASIS);
    // "GAAP: $2.65 to $2.70 Non-GAAP: $3.75 to $3.80" under a label row ("Earnings per share").
    if (parts.length > 1) {
      const rowLabel = parts[0]?.trim() || label;
      if (!rowLabel) continue;
      for (let i = 1; i < parts.length; i += 2) {
        const basis = parts[i] === 'GAAP' ? 'reported' : 'adjusted';
        const stated = valueIn(parts[i + 1] ?? '', /per share|eps/i.test(rowLabel));
        if (stated)
          out.push({
            metricId: metricOf(rowLabel),
            label: rowLabel.replace(/\s*\d+$/, ''),
            basis,
            period,
            ...stated,
          });
      }
      continue;
    }
    if (/[.”"]$/.test(block) && block.split(' ').length >= 8) {
      for (const sentence of block.split(/(?<=[a-z0-9%)]\.)\s+(?=[A-Z])/))
        out.push(...sentenceGuidance(sentence, period));
      continue;
    }
    const at = block.search(/[~$]|\b\d/);
    const head = at > 0 ? block.slice(0, at).trim() : '';
    const rest = block.slice(at);
    // A bare number after a label is a footnote mark ("Earnings per share 1"), not a figure.
    const figure = at > 0 && head.split(' ').length <= 8 && !/^\d+$/.test(rest.trim());
    const stated = figure ? valueIn(rest, /per share|eps/i.test(head)) : null;
    if (stated && head && !/[.:]$/.test(head)) {
      out.push({ metricId: metricOf(head), label: head, basis: 'reported', period, ...stated });
      label = null;
    } else if (!/[.:]$/.test(block) && block.split(' ').length <= 8) {
      label = block;
    }
  }
  return out;
}

const SPOKEN: [RegExp, string, string][] = [
  [/\b(total\s+)?revenues?\b/i, 'revenue', 'Revenue'],
  [/\b(diluted\s+)?(earnings per (diluted\s+)?share|EPS)\b/i, 'eps', 'Earnings per share'],
  [/\bgross margins?\b/i, 'gross_margin', 'Gross margin'],
  [/\boperating margins?\b/i, 'operating_margin', 'Operating margin'],
  [/\boperating expenses\b/i, 'operating_expenses', 'Operating expenses'],
  [/\btax rate\b/i, 'tax_rate', 'Tax rate'],
];

/** "Revenue is expected to be $24.0 billion, plus or minus 2%.": a metric named before a figure it is expected at. */
export function sentenceGuidance(sentence: string, current: Period | null): Guided[] {
  if (!/\b(expect|anticipat|forecast|project|target|guidance|outlook)/i.test(sentence)) return [];
  const period = periodNamed(sentence) ?? current;
  if (!period) return [];
  const out: Guided[] = [];
  for (const [pattern, metricId, label] of SPOKEN) {
    const named = pattern.exec(sentence);
    if (!named) continue;
    const after = sentence.slice(named.index + named[0].length);
    const at = after.search(/[~$]|\b(approximately|about)\s|\b\d/);
    if (at < 0 || at > 60) continue;
    const basis = /non-gaap/i.test(sentence.slice(Math.max(0, named.index - 20), named.index))
      ? 'adjusted'
      : 'reported';
    const stated = valueIn(after.slice(at), metricId === 'eps');
    if (stated && stated.unit !== 'count') out.push({ metricId, label, basis, period, ...stated });
  }
  return out;
}
