import path from 'node:path';
import type { LoadContext } from '../run.js';
import { SourceError, type SourceFile } from '../source.js';

// EDGAR's complete submission text file (ACCESSION.txt): the SEC header, then each document of the filing
// between <DOCUMENT> and </DOCUMENT>, with its type (8-K, EX-99.1, …), file name and text.

export interface SubmissionDocument {
  type: string;
  file: string;
  body: string;
}

const DOCUMENT = /<DOCUMENT>\s*<TYPE>([^\n]+)[\s\S]*?<FILENAME>([^\n]+)[\s\S]*?<TEXT>\n?([\s\S]*?)<\/TEXT>/g;

export function submissionDocuments(text: string): SubmissionDocument[] {
  return [...text.matchAll(DOCUMENT)].map((m) => ({
    type: m[1]!.trim(),
    file: m[2]!.trim(),
    body: m[3]!,
  }));
}

/** The SEC header: the text before </SEC-HEADER>, empty when there is none. */
export function submissionHeader(text: string): string {
  const end = text.indexOf('</SEC-HEADER>');
  return end < 0 ? '' : text.slice(0, end);
}

const ACCESSION = /^(\d{10})-?(\d{2})-?(\d{6})$/;

/**
 * The accession number of a filing's document read alone: --accession, else the name of the folder it came
 * from (EDGAR keeps a filing's documents in a folder named by it).
 */
export function accessionOf(source: SourceFile, context: LoadContext): string {
  const m = ACCESSION.exec(context.options.accession ?? path.basename(path.dirname(source.path)));
  if (!m)
    throw new SourceError(
      source.name,
      null,
      "name the filing's accession number with --accession (its EDGAR folder has it)",
    );
  return `${m[1]}-${m[2]}-${m[3]}`;
}
