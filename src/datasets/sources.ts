// Attribution and licence of each upstream source, as meta.source reports them.
export const SOURCES = {
  cftc: {
    id: 'cftc',
    attribution: 'U.S. Commodity Futures Trading Commission, Commitments of Traders reports',
    licence: 'Public domain (U.S. federal government work)',
  },
  eia: {
    id: 'eia',
    attribution:
      'U.S. Energy Information Administration, Weekly Petroleum Status Report and natural gas storage',
    licence: 'Public domain (U.S. federal government work)',
  },
  bls: {
    id: 'bls',
    attribution: 'U.S. Bureau of Labor Statistics, Consumer Price Index',
    licence: 'Public domain (U.S. federal government work)',
  },
  'sec-edgar': {
    id: 'sec-edgar',
    attribution: 'U.S. Securities and Exchange Commission, EDGAR filings',
    licence: 'Public domain (U.S. federal government work)',
  },
  usaspending: {
    id: 'usaspending',
    attribution: 'USAspending.gov, U.S. Department of the Treasury',
    licence: 'Public domain (U.S. federal government work)',
  },
  ted: {
    id: 'ted',
    attribution: 'Tenders Electronic Daily (TED), Publications Office of the European Union',
    licence: 'CC BY 4.0',
  },
} as const;

/** On cpi responses: who vouches for what. */
export const BLS_DISCLAIMER =
  'The Bureau of Labor Statistics does not vouch for data derived from its statistics; ' +
  'the derived calculations (changes, annualised rates, contributions) are Quarry’s.';
