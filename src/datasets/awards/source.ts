// Where awards come from, as meta.source and the catalog credit them.
import type { Source } from '../descriptor.js';

export const USASPENDING_SOURCE: Source = {
  id: 'usaspending',
  attribution: 'USAspending.gov, U.S. Department of the Treasury',
  licence: 'Public domain (U.S. federal government work)',
};

export const TED: Source = {
  id: 'ted',
  attribution: 'Tenders Electronic Daily (TED), Publications Office of the European Union',
  licence: 'CC BY 4.0',
};
