// fields: the field dictionary, as GET /v1/fields (the whole of it, no key) and the market.fields tool.
import { marketVerb } from '../verb/declare.js';
import { searchFields } from './fields.js';
import { FieldsQuery, FieldsResponse, NoFieldsQuery } from './schema.js';

export const FIELDS_VERB = marketVerb({
  name: 'fields',
  key: 'none',
  request: FieldsQuery,
  response: FieldsResponse,
  read: (input) => input,
  answer: async (_deps, query) => searchFields(query),
  rest: {
    path: '/v1/fields',
    methods: ['GET'],
    tag: 'reference',
    getId: 'fields.list',
    summary: 'Field dictionary',
    description:
      'Every field id with its aliases, unit, asset types and history flag, and the terminal fields not served. No key.',
    query: NoFieldsQuery,
    fromQuery: () => ({}),
  },
  tool: {
    name: 'market.fields',
    title: 'Field dictionary',
    description:
      'Search the field dictionary: ids, terminal aliases ([m]: millions), units, asset types, whether history ' +
      'serves the field, and the terminal fields not served with the reason. Same entries as GET /v1/fields.',
  },
});
