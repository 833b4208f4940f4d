// exec-pay data shapes (spec: Dataset data shapes, exec-pay).
import { Type } from 'typebox';
import { Company } from '../../ingest/sec/companies.js';
import { DateString, Nullable, Timestamp } from '../../kernel/schema.js';

export const ProxyFiling = Type.Object(
  {
    id: Type.String(),
    ticker: Type.String(),
    company: Type.String(),
    proxyYear: Type.Integer(),
    fiscalYear: Type.Integer(),
    fiscalYearLabel: Type.String(),
    filedAt: Nullable(
      Type.String({
        description:
          'When EDGAR accepted the proxy (ISO 8601, UTC); null where it is not known: a CEO-pay table row whose ' +
          'proxy is not held.',
      }),
    ),
    meetingDate: Nullable(DateString),
    updatedAt: Timestamp,
    ceoName: Type.String(),
    ceoTitle: Type.String(),
    ceoTotal: Type.Number(),
    ceoPriorYearTotal: Nullable(Type.Number()),
    payRatio: Nullable(Type.Number()),
    medianEmployeePay: Nullable(Type.Number()),
    source: Type.String({
      description:
        'Where the figures were read: filing (the proxy statement itself) or ceo-pay-table (a table compiled from ' +
        'proxies, served only for a fiscal year no filing held here reports; its filedAt is the acceptance of the ' +
        "company's proxy of the next year where EDGAR's list of its filings is held, else null, as such tables give " +
        'no dates).',
      examples: ['filing'],
    }),
  },
  { title: 'ProxyFiling' },
);

export const ExecPayData = Type.Object({ company: Company, proxies: Type.Array(ProxyFiling) });

export const ExecPayYearData = Type.Object({
  company: Company,
  year: Type.Integer({ description: 'The fiscal year asked for.' }),
  proxies: Type.Array(ProxyFiling, {
    description: 'Proxy statements reporting that fiscal year, newest first.',
  }),
  ceoPayChange: Nullable(
    Type.Object(
      { ceoTotal: Type.Number(), ceoPriorYearTotal: Type.Number(), percent: Type.Number() },
      {
        description:
          "CEO total pay against the prior year's, as the newest proxy reports them; percent to one decimal.",
      },
    ),
  ),
});
