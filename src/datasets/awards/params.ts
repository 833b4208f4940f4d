// The awards' own parameters: the filters of the award list and an award's id.
import { Type } from 'typebox';
import { nonBlank } from '../params.js';

export const AWARD_PARAMS = {
  ticker: Type.String({
    pattern: '^[A-Za-z0-9.:-]{1,32}$',
    description: 'Ticker symbol: 1-32 of A-Z a-z 0-9 . : -; upper-cased before use.',
  }),
  jurisdiction: Type.String({ pattern: '^[A-Za-z]{2,3}$', description: 'Jurisdiction code: 2-3 letters.' }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 currency code: 3 letters.' }),
  agency: nonBlank(200, 'Awarding agency name: 1-200 characters.'),
  sector: nonBlank(200, 'Sector: 1-200 characters.'),
  query: nonBlank(
    200,
    'Words to find in title, recipient and agency, every one of them, each whole, in any case and with or without accents: 1-200 characters.',
  ),
  source: Type.String({ pattern: '^[a-z0-9_-]{1,64}$', description: 'Source id: 1-64 of a-z 0-9 _ -.' }),
  id: Type.String({ pattern: '^[0-9a-f]{40}$', description: '40 lowercase hex characters.' }),
  parentId: Type.String({ pattern: '^[0-9a-f]{40}$', description: 'Id of a prime award: 40 lowercase hex.' }),
  awardType: Type.Enum(['prime', 'subaward', 'modification', 'notice'], { description: 'Award type.' }),
  fiscalYear: Type.Integer({ minimum: 2000, maximum: 2100, description: 'US federal fiscal year.' }),
  minAmount: Type.String({
    pattern: '^[0-9]{1,24}(\\.[0-9]{1,6})?$',
    description: 'Nonnegative decimal as a string: 1-24 digits, optionally a point and 1-6 digits.',
    examples: ['1000000.50'],
  }),
  revisionsCursor: nonBlank(1024, 'Opaque cursor from a previous revisions page.'),
};
