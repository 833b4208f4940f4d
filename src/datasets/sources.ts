// EDGAR, the source several datasets share (events, kpis-guidance, exec-pay), as meta.source credits it. A
// source only one dataset reads is declared in that dataset's folder.
import type { Source } from './descriptor.js';

export const SEC_EDGAR: Source = {
  id: 'sec-edgar',
  attribution: 'U.S. Securities and Exchange Commission, EDGAR filings',
  licence: 'Public domain (U.S. federal government work)',
};
