// EDGAR, the source several datasets share (events, kpis-guidance, exec-pay), as meta.source credits it. A
// source only one dataset reads is declared in that dataset's folder.
/** EDGAR as meta.source credits it (a dataset's Source). */
export const SEC_EDGAR = {
  id: 'sec-edgar',
  attribution: 'U.S. Securities and Exchange Commission, EDGAR filings',
  licence: 'Public domain (U.S. federal government work)',
} as const;
