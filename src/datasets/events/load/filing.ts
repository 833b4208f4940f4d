// An 8-K's own documents: the complete submission text file (SEC header and every document) or the primary
// document alone (inline XBRL). The submission's header gives the acceptance time and the items (its ITEM
// INFORMATION lines), its EX-99.1 the headline (the press release's title) and summary; the primary document
// gives an item's sub-heading, first paragraph and the people of Item 5.02. A primary document read alone
// knows only its cover: the company from its dei tags, the date of report, the items from its headings, and
// its press release: an exhibit given in the same command (the file its index links, else one headed
// "Exhibit 99.1"), else the exhibit its index links when it sits beside it (as EDGAR's folder holds them).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { shortName } from '../../../ingest/sec/filings.js';
import { cik10, tickerForCik } from '../../../ingest/sec/registrants.js';
import { accessionOf, submissionDocuments, submissionHeader } from '../../../ingest/sec/submission.js';
import { blocks, firstParagraph, itemHeadings, itemLead, releaseTitle } from '../../../ingest/sec/text.js';
import { SourceError, type SourceFile, wholeText } from '../../../ingest/source.js';
import { facts, plainText } from '../../../ingest/xbrl/inline.js';
import { eastern } from '../../../kernel/eastern.js';
import { itemOfTitle } from '../derive.js';
import type { EventRecordValue } from '../import.js';
import { itemPeople } from './people.js';

export const SUBMISSION_TEXT: FileKind = {
  name: "an 8-K's complete submission text file (.txt)",
  recognises: (head) => /^<SEC-DOCUMENT>/.test(head) && /CONFORMED SUBMISSION TYPE:\s*8-K/.test(head),
};

export const EIGHT_K_DOCUMENT: FileKind = {
  name: "an 8-K's primary document (inline XBRL)",
  recognises: (head) =>
    !head.startsWith('<SEC-DOCUMENT>') && /name="dei:DocumentType"[^>]*>\s*8-K(\/A)?\s*</.test(head),
};

const ACCESSION = /^(\d{10})-?(\d{2})-?(\d{6})$/;
type Out = AsyncGenerator<{ line: number; value: EventRecordValue }>;

const archive = (cik: string, accession: string, file: string) =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${file}`;

/** What the primary document says: its headline, summary and people. */
function said(html: string, release: string | null) {
  const parts = blocks(html);
  const lead = itemLead(parts);
  let headline = lead.heading;
  let summary = lead.summary;
  if (release) {
    const exhibit = blocks(release);
    const title = releaseTitle(exhibit);
    if (title) {
      headline = title;
      summary = firstParagraph(exhibit, exhibit.indexOf(title) + 1) ?? summary;
    }
  }
  return { headline, summary, people: itemPeople(plainText(html)), headings: itemHeadings(parts) };
}

export async function* submissionTextEvents(
  source: SourceFile,
  context: LoadContext<Map<string, string>>,
): Out {
  const text = await wholeText(source);
  const header = submissionHeader(text);
  const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.+)$`, 'm').exec(header)?.[1]?.trim();
  const accession = field('ACCESSION NUMBER');
  const accepted = /<ACCEPTANCE-DATETIME>(\d{14})/.exec(header)?.[1];
  const cikText = field('CENTRAL INDEX KEY');
  const name = field('COMPANY CONFORMED NAME');
  const form = field('CONFORMED SUBMISSION TYPE');
  if (!accession || !ACCESSION.test(accession) || !accepted || !cikText || !name || !form)
    throw new SourceError(
      source.name,
      null,
      'the SEC header lacks the accession, acceptance time, CIK, name or form',
    );
  const titles = [...header.matchAll(/^\s*ITEM INFORMATION:\s*(.+)$/gm)].map((m) => m[1]!.trim());
  const items = titles.map((t) => itemOfTitle(t));
  const unknown = titles.filter((_, i) => items[i] === null);
  if (unknown.length)
    throw new SourceError(source.name, null, `unknown ITEM INFORMATION: ${unknown.join('; ')}`);
  const documents = submissionDocuments(text);
  const primary = documents.find((d) => d.type === form);
  if (!primary) throw new SourceError(source.name, null, `no ${form} document in the submission`);
  const release = documents.find((d) => /^EX-99(\.1)?$/.test(d.type))?.body ?? null;
  const { headline, summary, people, headings } = said(primary.body, release);
  const codes = items as string[];
  const disagree = headings.filter((h) => !codes.includes(h));
  if (disagree.length)
    context.notes.push(`items ${disagree.join(', ')} are headed in the document but not in the SEC header`);
  const cik = cik10(cikText);
  const date = `${accepted.slice(0, 4)}-${accepted.slice(4, 6)}-${accepted.slice(6, 8)}`;
  yield {
    line: 1,
    value: {
      ticker: tickerForCik(source, context, cik, name),
      cik,
      companyName: name,
      companyShortName: shortName(name),
      accessionNumber: accession,
      form,
      filedAt: eastern(
        date,
        Number(accepted.slice(8, 10)),
        Number(accepted.slice(10, 12)),
        Number(accepted.slice(12, 14)),
      ),
      filingDate: date,
      docUrl: archive(cik, accession, primary.file),
      items: codes,
      headline,
      summary,
      people,
      dated: 'accepted',
    },
  };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "March 2, 2026" (or an ISO date) as 2026-03-02. */
function coverDate(text: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const m = /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})$/.exec(text.replace(/\s+/g, ' ').trim());
  const month = m ? MONTHS.indexOf(m[1]!.toLowerCase()) + 1 : 0;
  return m && month ? `${m[3]}-${String(month).padStart(2, '0')}-${(m[2]!).padStart(2, '0')}` : null;
}

/** The document's exhibit 99.1, as its exhibit index links it: a file of that name in the same folder. */
export function exhibitFile(html: string): string | null {
  for (const [row] of html.matchAll(/<tr\b[\s\S]*?<\/tr>/gi)) {
    const link = /href="([^"#/?]+\.html?)"/i.exec(row);
    if (link && /^\s*(Exhibit\s+)?99(\.1|\.01)?\b/i.test(plainText(row))) return link[1]!;
  }
  return null;
}

/** Whether an HTML document is headed as exhibit 99.1 (or 99) in its first blocks. */
function headedAsRelease(html: string): boolean {
  return blocks(html)
    .slice(0, 5)
    .some((b) => /^(Exhibit|EX-)\s*99(\.1|\.01)?$/i.test(b));
}

/** The press release of a primary document: given in the same command, else beside it on disk. */
function releaseOf(source: SourceFile, html: string, context: LoadContext): string | null {
  const linked = exhibitFile(html);
  const given = context.companions.filter((f) => /\.html?$/i.test(f) && existsSync(f));
  const named = given.find((f) => linked !== null && path.basename(f) === linked);
  if (named) return readFileSync(named, 'utf8');
  for (const file of given) {
    const text = readFileSync(file, 'utf8');
    if (headedAsRelease(text)) return text;
  }
  const beside = linked ? path.join(path.dirname(source.path), linked) : null;
  return beside && existsSync(beside) ? readFileSync(beside, 'utf8') : null;
}

export async function* primaryDocumentEvents(
  source: SourceFile,
  context: LoadContext<Map<string, string>>,
): Out {
  const html = await wholeText(source);
  const tagged = facts(html);
  const dei = (name: string) => {
    const value = tagged.find((f) => f.name === `dei:${name}`)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const cikText = dei('EntityCentralIndexKey');
  const name = dei('EntityRegistrantName');
  const form = dei('DocumentType');
  const date = coverDate(dei('DocumentPeriodEndDate') ?? '');
  if (!cikText || !name || !form || !date)
    throw new SourceError(
      source.name,
      null,
      'the cover tags no CIK, registrant name, form or date of report',
    );
  const accession = accessionOf(source, context);
  const { headline, summary, people, headings } = said(html, releaseOf(source, html, context));
  if (headings.length === 0) throw new SourceError(source.name, null, 'the document has no Item headings');
  const cik = cik10(cikText);
  const ticker = context.options.ticker?.toUpperCase() ?? context.prepared.get(cik) ?? dei('TradingSymbol');
  yield {
    line: 1,
    value: {
      ticker: ticker ?? tickerForCik(source, context, cik, name),
      cik,
      companyName: name,
      companyShortName: shortName(name),
      accessionNumber: accession,
      form,
      filedAt: eastern(date, 0, 0, 0),
      filingDate: date,
      docUrl: archive(cik, accession, source.name),
      items: headings,
      headline,
      summary,
      people,
      dated: 'cover',
    },
  };
}
