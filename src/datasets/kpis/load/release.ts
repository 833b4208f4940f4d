// An earnings release (an 8-K's EX-99.1, read alone) → guidance facts. The company is the one the release
// names by its listing ("(Nasdaq:ADBE)") or --ticker; the filing is named by the EDGAR folder the file came
// from (or --accession). Each fact's evidence quotes the row or sentence that states it, with its offset in
// the raw HTML when it is there as written (quoteMatchMode exact_html), else in the normalised text
// (normalised_text: markup removed, entities decoded, white space collapsed).
import type { Kysely } from 'kysely';
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { shortName } from '../../../ingest/sec/filings.js';
import { accessionOf } from '../../../ingest/sec/submission.js';
import { blocks, releaseTitle } from '../../../ingest/sec/text.js';
import { SourceError, type SourceFile, wholeText } from '../../../ingest/source.js';
import { plainText } from '../../../ingest/xbrl/inline.js';
import { addDays } from '../../../kernel/dates.js';
import { eastern } from '../../../kernel/eastern.js';
import type { Database } from '../../../store/schema.js';
import type { FactRecord } from '../import.js';
import { type Guided, guidanceIn, type Period } from './guidance.js';

export const EARNINGS_RELEASE: FileKind = {
  name: 'an earnings release (EX-99.1, HTML)',
  recognises: (head) =>
    !head.startsWith('<SEC-DOCUMENT>') &&
    !head.includes('ix:header') &&
    /Exhibit\s+99(\.1)?\b/i.test(head.replace(/<[^>]*>|&#160;|&nbsp;/g, ' ')),
};

type Companies = Map<string, { cik: string; name: string }>;

/** The registrants held, by ticker. */
export async function releaseContext(db: Kysely<Database>): Promise<Companies> {
  const registrants = await db
    .selectFrom('registrants')
    .select(['ticker', 'cik', 'name'])
    .where('is_current', '=', 1)
    .where('listed', '=', 1)
    .execute();
  return new Map(registrants.map((r) => [r.ticker, { cik: r.cik, name: r.name }]));
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const ORDINAL: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };
const iso = (month: string, day: string, year: string) =>
  `${year}-${String(MONTHS.split('|').indexOf(month) + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;

/**
 * Period ends from the quarter the release reports ("first quarter fiscal year 2023 ended March 3, 2023"):
 * quarters of month-end calendars end at month ends, others every 13 weeks (52/53-week years).
 */
export function periodEnd(text: string): (period: Period) => string | null {
  const m = new RegExp(
    `\\b(first|second|third|fourth) quarter (?:of )?fiscal (?:year )?(\\d{4}) ended (${MONTHS}) (\\d{1,2}), (\\d{4})`,
    'i',
  ).exec(text);
  if (!m) return () => null;
  const quarter = ORDINAL[(m[1] as string).toLowerCase()]!;
  const year = Number(m[2]);
  const anchor = iso(m[3]!, m[4]!, m[5]!);
  const monthEnd = addDays(anchor, 1).slice(8, 10) === '01';
  return (period) => {
    const q = period.kind === 'year' ? 4 : (period.fiscalQuarter as number);
    const ahead = (period.fiscalYear - year) * 4 + (q - quarter);
    if (!monthEnd) return addDays(anchor, ahead * 91);
    const first = new Date(`${anchor.slice(0, 7)}-01T00:00:00Z`);
    first.setUTCMonth(first.getUTCMonth() + ahead * 3 + 1);
    return addDays(first.toISOString().slice(0, 10), -1);
  };
}

/** The quote's place: as written in the HTML, else in the normalised text. */
function locate(html: string, plain: string, quote: string) {
  const raw = html.indexOf(quote);
  if (raw >= 0) return { quoteOffset: raw, quoteSourceLength: html.length, quoteMatchMode: 'exact_html' };
  const at = plain.indexOf(quote);
  return at < 0
    ? null
    : { quoteOffset: at, quoteSourceLength: plain.length, quoteMatchMode: 'normalised_text' };
}

/** The words that state a figure: its row ("Total revenue $4.75 billion to $4.78 billion") where one holds it. */
function periodLabel(period: Guided['period']): string {
  return period.kind === 'year'
    ? `FY${period.fiscalYear}`
    : `Q${period.fiscalQuarter} FY${period.fiscalYear}`;
}

function rowOf(parts: readonly string[], guided: Guided): string {
  const row = parts.find((b) => b.includes(guided.quote) && b.length <= guided.quote.length + 120);
  return row && !row.startsWith('GAAP') && !row.startsWith('Non-GAAP') ? row : guided.quote;
}

/** The listed company the release is of: --ticker, or the listing its text names, held among the registrants. */
function companyOf(file: string, plain: string, context: LoadContext<Companies>) {
  const listed = /\((?:NYSE|NASDAQ|Nasdaq)(?:\s*GS)?\s*:\s*([A-Z.]{1,10})\)/.exec(plain)?.[1];
  const ticker = context.options.ticker?.toUpperCase() ?? listed;
  const company = ticker ? context.prepared.get(ticker) : undefined;
  if (!ticker || !company)
    throw new SourceError(
      file,
      null,
      `the release names no listed company held among the registrants${ticker ? ` (${ticker})` : ''}: load company_tickers.json first, or give --ticker`,
    );
  return { ticker, company };
}

export async function* releaseGuidance(
  source: SourceFile,
  context: LoadContext<Companies>,
): AsyncGenerator<{ line: number; value: FactRecord }> {
  const html = await wholeText(source);
  const parts = blocks(html);
  const plain = plainText(html);
  const { ticker, company } = companyOf(source.name, plain, context);
  const accession = accessionOf(source, context);
  const dateline = new RegExp(`(${MONTHS}) (\\d{1,2}), (\\d{4})`).exec(plain);
  // The dateline's day (its start, US Eastern): the file alone says it, so loading it again changes nothing.
  const published = dateline ? eastern(iso(dateline[1]!, dateline[2]!, dateline[3]!), 0, 0, 0) : null;
  if (!published) throw new SourceError(source.name, null, 'the release states no date');
  const guided = guidanceIn(parts);
  if (guided.length === 0) context.notes.push('no outlook section with figures was found');
  const endOf = periodEnd(plain);
  const title = releaseTitle(parts) ?? source.name;
  for (const g of guided) {
    const end = endOf(g.period);
    if (!end)
      throw new SourceError(
        source.name,
        null,
        `the release says no quarter end to date ${g.label}'s period from`,
      );
    const found = [rowOf(parts, g), g.quote]
      .map((quote) => ({ quote, place: locate(html, plain, quote) }))
      .find((q) => q.place !== null);
    if (!found?.place) throw new SourceError(source.name, null, `"${g.quote}" is not found in the document`);
    const label = periodLabel(g.period);
    yield {
      line: 1,
      value: {
        type: 'fact',
        kind: 'guidance',
        ticker,
        cik: company.cik,
        companyName: company.name,
        companyShortName: shortName(company.name),
        metricId: g.metricId,
        period: {
          start: null,
          end,
          kind: g.period.kind,
          fiscalYear: g.period.fiscalYear,
          fiscalQuarter: g.period.fiscalQuarter,
          label,
        },
        value: g.value,
        low: g.low,
        high: g.high,
        unit: g.unit,
        currency: g.currency,
        basis: g.basis,
        dimensions: {},
        confidence: g.low === null && /^(~|approx|about|around)/i.test(g.quote) ? 0.8 : 0.9,
        asOf: published,
        conflict: false,
        evidence: [
          {
            id: `${accession}:${g.metricId}:${g.basis}:${label}`,
            documentId: accession,
            sourceId: 'sec-edgar',
            sourceKind: 'earnings-release',
            url: `https://www.sec.gov/Archives/edgar/data/${Number(company.cik)}/${accession.replace(/-/g, '')}/${source.name}`,
            title,
            publishedAt: published,
            country: 'US',
            language: 'en',
            quote: found.quote,
            ...found.place,
            confidence: 0.9,
          },
        ],
      },
    };
  }
}
