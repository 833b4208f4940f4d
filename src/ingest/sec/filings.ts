// What EDGAR's filing files share, whichever dataset reads them: the submissions JSON's kind, its acceptance
// times, and a company's everyday name.
import { eastern } from '../../kernel/eastern.js';
import type { FileKind } from '../run.js';

/** EDGAR's submissions JSON (data.sec.gov/submissions/CIK##########.json): a company and its filings. */
export const SUBMISSIONS: FileKind = {
  name: 'submissions JSON (a company and its filings)',
  recognises: (head) => /^\s*\{\s*"cik"\s*:/.test(head) && head.includes('"filings"'),
};

const LEGAL_SUFFIX =
  /[,.]?\s+(inc|incorporated|corp|corporation|co|company|ltd|limited|plc|n\.?v|s\.?a|ag|se)\.?$/i;

/**
 * EDGAR writes the acceptance time as Eastern wall-clock time with a "Z": 2024-04-29T09:00:18.000Z is
 * 13:00:18Z (the filing's SEC header says 20240429090018).
 */
export function acceptedAt(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!m) throw new Error(`acceptance time "${text}" is not YYYY-MM-DDTHH:MM:SS`);
  return eastern(m[1]!, Number(m[2]), Number(m[3]), Number(m[4]));
}

/** The name people use: Apple Inc. → Apple, NVIDIA CORP → NVIDIA. */
export function shortName(name: string): string {
  return name.replace(LEGAL_SUFFIX, '').trim() || name;
}
