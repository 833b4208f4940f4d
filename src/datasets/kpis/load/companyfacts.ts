// EDGAR's company facts (data.sec.gov/api/xbrl/companyfacts/CIK##########.json) → kpis series on the
// reported basis. A period is its end date and its length; a figure a later filing states differently (not
// just rounded) is a restatement, written as a new revision known from that filing's date.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { shortName } from '../../../ingest/sec/filings.js';
import { cik10, tickerForCik } from '../../../ingest/sec/registrants.js';
import { SourceError, type SourceFile, wholeJson } from '../../../ingest/source.js';
import { type ConceptFacts, factsByPeriod, type XbrlFact } from '../../../ingest/xbrl/concepts.js';
import { annualEnds, FiscalCalendar, kindOf, sameUpToRounding } from '../../../ingest/xbrl/periods.js';
import type { FactRecord, MetricRecord } from '../import.js';
import { metricRecord, servedUnit, unitMatches, XBRL_METRICS } from './metrics.js';

export const COMPANY_FACTS: FileKind = {
  name: 'companyfacts JSON (XBRL facts)',
  recognises: (head) =>
    /^\s*\{\s*"cik"\s*:/.test(head) && head.includes('"entityName"') && head.includes('"facts"'),
};

/** Periodic reports: their facts are the company's figures for the periods they cover. */
const PERIODIC = /^(10-K|10-KT|10-Q|20-F|40-F)(\/A)?$/;

type Out = AsyncGenerator<{ line: number; value: FactRecord | MetricRecord }>;

export async function* companyFactsRecords(
  source: SourceFile,
  context: LoadContext<Map<string, string>>,
): Out {
  const body = (await wholeJson(source)) as {
    cik?: unknown;
    entityName?: unknown;
    facts?: Record<string, Record<string, ConceptFacts>>;
  } | null;
  const gaap = body?.facts?.['us-gaap'];
  if ((typeof body?.cik !== 'number' && typeof body?.cik !== 'string') || typeof body.entityName !== 'string')
    throw new SourceError(source.name, null, 'not EDGAR company facts (cik and entityName expected)');
  if (!gaap) throw new SourceError(source.name, null, `${body.entityName} reports no us-gaap facts`);
  const cik = cik10(body.cik);
  const ticker = tickerForCik(source, context, cik, body.entityName);
  const company = { ticker, cik, companyName: body.entityName, companyShortName: shortName(body.entityName) };
  const calendar = FiscalCalendar.fromYearEnds(annualEnds(gaap));

  for (const metric of XBRL_METRICS) yield { line: 1, value: metricRecord(metric) };
  for (const metric of XBRL_METRICS) {
    const periods = factsByPeriod(
      gaap,
      metric.concepts,
      (unit) => unitMatches(metric.measure, unit),
      (fact) => {
        const kind = PERIODIC.test(fact.form ?? '') ? kindOf(fact.start, fact.end) : null;
        return kind && `${kind}|${fact.end}`;
      },
    );
    for (const [key, { concept, unit, facts }] of periods) {
      const kind = key.slice(0, key.indexOf('|')) as 'year' | 'quarter' | 'point';
      const fiscalYear = calendar.fiscalYear(facts[0]!.end);
      const served = servedUnit(metric.measure, unit);
      for (const fact of restatements(facts)) {
        yield {
          line: 1,
          value: {
            type: 'fact',
            kind: 'kpi',
            ...company,
            metricId: metric.id,
            period: {
              start: fact.start ?? null,
              end: fact.end,
              kind,
              fiscalYear,
              fiscalQuarter: kind === 'year' ? null : calendar.fiscalQuarter(fact.end),
              label: calendar.label(kind, fact.end),
            },
            value: fact.val,
            ...served,
            basis: 'reported',
            dimensions: kind === 'point' ? {} : { frequency: kind === 'year' ? 'annual' : 'quarterly' },
            confidence: 1,
            asOf: `${fact.filed}T00:00:00.000Z`,
            conflict: false,
            evidence: [evidence(cik, concept, unit, fact)],
          },
        };
      }
    }
  }
}

/** The first filing of a period's figure, then each later filing that states a different figure. */
function restatements(facts: XbrlFact[]): XbrlFact[] {
  const ordered = [...facts].sort((a, b) => a.filed.localeCompare(b.filed) || a.accn.localeCompare(b.accn));
  const out: XbrlFact[] = [];
  for (const fact of ordered) {
    const last = out.at(-1);
    if (!last || !sameUpToRounding(last.val, fact.val)) out.push(fact);
  }
  return out;
}

function evidence(cik: string, concept: string, unit: string, fact: XbrlFact) {
  const folder = fact.accn.replace(/-/g, '');
  const quote = `us-gaap:${concept} = ${fact.val} ${unit} (${fact.start ? `${fact.start} to ` : ''}${fact.end})`;
  return {
    id: `${fact.accn}:${concept}:${fact.start ?? ''}:${fact.end}`,
    documentId: fact.accn,
    sourceId: 'sec-edgar',
    sourceKind: 'xbrl',
    url: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${folder}/${fact.accn}-index.htm`,
    title: `${fact.form} filed ${fact.filed}`,
    publishedAt: `${fact.filed}T00:00:00.000Z`,
    country: 'US',
    language: 'en',
    quote,
    quoteOffset: 0,
    quoteSourceLength: quote.length,
    quoteMatchMode: 'xbrl_fact',
    confidence: 1,
  };
}
