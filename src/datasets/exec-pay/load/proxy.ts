// A DEF 14A proxy statement in inline XBRL: the pay-versus-performance facts (SEC's ecd taxonomy, fiscal
// years ending after 2022-12-15) name the CEO (the PEO) and the CEO's total pay for the latest year and the
// year before. The pay ratio and the median employee's pay are not tagged anywhere: they are read from the
// text ("approximately 136 to 1"), as disclosed, never recomputed; null when the proxy does not state them.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { shortName } from '../../../ingest/sec/filings.js';
import { cik10, tickerForCik } from '../../../ingest/sec/registrants.js';
import { SourceError, type SourceFile, wholeText } from '../../../ingest/source.js';
import { type Context, contexts, facts, type InlineFact, plainText } from '../../../ingest/xbrl/inline.js';
import type { ProxyRecordValue } from '../import.js';

export const PROXY: FileKind = {
  name: 'DEF 14A proxy statement (inline XBRL)',
  recognises: (head) => /name="dei:DocumentType"[^>]*>\s*DEF 14A\s*</.test(head),
};

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const DATE = `(${MONTHS})\\s+(\\d{1,2}),\\s+(\\d{4})`;
const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function isoDate(month: string, day: string, year: string): string {
  const m = MONTHS.split('|').indexOf(month) + 1;
  return `${year}-${String(m).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

function firstDate(text: string, pattern: string): string | null {
  const m = new RegExp(pattern, 'i').exec(text);
  return m ? isoDate(m[1]!, m[2]!, m[3]!) : null;
}

/**
 * The pay ratio as disclosed ("our pay ratio is approximately 136 to 1", "136:1"), and the median employee's
 * pay: the last amount after "median" in the passage that leads up to the ratio.
 */
export function payRatioText(text: string): { payRatio: number | null; medianEmployeePay: number | null } {
  const ratio = /\bratio\b[^.]{0,150}?\b(\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s*(?:to|:)\s*1\b/i.exec(text);
  if (!ratio) return { payRatio: null, medianEmployeePay: null };
  const passage = text.slice(Math.max(0, ratio.index - 3000), ratio.index);
  const median = [...passage.matchAll(/median[^$]{0,300}?\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?)/gi)].at(-1);
  const number = (m: RegExpMatchArray | undefined) => (m ? Number(m[1]!.replace(/,/g, '')) : null);
  return { payRatio: number(ratio), medianEmployeePay: number(median) };
}

/** What the proxy's text states: when it was made available, the meeting's date, the pay ratio and median. */
function proxyText(file: string, body: string) {
  const filed =
    firstDate(body, `(?:made available|mailed|sent)[^.]{0,80}?on or about ${DATE}`) ?? firstDate(body, DATE);
  if (!filed) throw new SourceError(file, null, 'the proxy states no date it was made available');
  const meeting = firstDate(body, `annual meeting[^.]{0,120}?will be held on (?:\\w+day, )?${DATE}`);
  return { filed, meeting, ...payRatioText(body) };
}

/** "FY2024 (Feb 2023 - Jan 2024)": the fiscal year and, where the period's start is tagged, its months. */
function fiscalYearLabel(start: string | null | undefined, end: string): string {
  const fiscalYear = Number(end.slice(0, 4));
  return start
    ? `FY${fiscalYear} (${SHORT[Number(start.slice(5, 7)) - 1]} ${start.slice(0, 4)} - ${SHORT[Number(end.slice(5, 7)) - 1]} ${fiscalYear})`
    : `FY${fiscalYear}`;
}

type Out = AsyncGenerator<{ line: number; value: ProxyRecordValue }>;

export async function* proxyRecords(source: SourceFile, context: LoadContext<Map<string, string>>): Out {
  const html = await wholeText(source);
  const all = facts(html);
  const byContext = contexts(html);
  const text = (name: string) => all.find((f) => f.name === name)?.value;
  const cikText = text('dei:EntityCentralIndexKey');
  const name = text('dei:EntityRegistrantName');
  if (typeof cikText !== 'string' || typeof name !== 'string')
    throw new SourceError(
      source.name,
      null,
      'the proxy tags no dei:EntityCentralIndexKey and registrant name',
    );
  const cik = cik10(cikText);
  const ticker = tickerForCik(source, context, cik, name);
  const totals = all.filter((f) => f.name === 'ecd:PeoTotalCompAmt' && typeof f.value === 'number');
  if (totals.length === 0)
    throw new SourceError(
      source.name,
      null,
      'no pay-versus-performance facts (ecd:PeoTotalCompAmt) in the proxy',
    );

  const when = (f: InlineFact) => byContext.get(f.context) as Context;
  const latestEnd = totals
    .map((f) => when(f)?.end ?? '')
    .sort()
    .at(-1) as string;
  const priorEnd = totals
    .map((f) => when(f)?.end ?? '')
    .filter((end) => end < latestEnd)
    .sort()
    .at(-1);
  const { filed, meeting, payRatio, medianEmployeePay } = proxyText(source.name, plainText(html));

  // One CEO, or (in a year with two) each by the person's member of the individual axis.
  const latest = totals.filter((f) => when(f).end === latestEnd);
  const peoName = (member: string | null) =>
    all.find((f) => f.name === 'ecd:PeoName' && byContext.get(f.context)?.member === member)?.value ??
    all.find((f) => f.name === 'ecd:PeoName')?.value;
  const period = when(latest[0]!);
  const fiscalYear = Number(latestEnd.slice(0, 4));
  const label = fiscalYearLabel(period.start, latestEnd);
  for (const fact of latest) {
    const member = when(fact).member;
    const ceoName = peoName(member);
    if (typeof ceoName !== 'string' || !ceoName)
      throw new SourceError(source.name, null, `no ecd:PeoName for the CEO of fiscal ${fiscalYear}`);
    const prior = totals.find((f) => when(f).end === priorEnd && when(f).member === member);
    yield {
      line: 1,
      value: {
        ticker,
        cik,
        companyName: name,
        companyShortName: shortName(name),
        id: `DEF14A-${cik}-FY${fiscalYear}${member ? `-${member}` : ''}`,
        sourceKind: 'filing',
        proxyYear: Number(filed.slice(0, 4)),
        fiscalYear,
        fiscalYearLabel: label,
        filedAt: `${filed}T00:00:00.000Z`,
        meetingDate: meeting,
        ceoName,
        ceoTitle: 'Chief Executive Officer',
        ceoTotal: fact.value as number,
        ceoPriorYearTotal: prior ? (prior.value as number) : null,
        // A ratio and a median describe the one CEO in office at year end: with two, neither is split.
        payRatio,
        medianEmployeePay,
      },
    };
  }
}
