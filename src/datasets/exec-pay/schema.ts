// exec-pay data shapes (spec: Dataset data shapes, exec-pay).
import { Type } from 'typebox';
import { DateString, Nullable, Timestamp } from '../envelope.js';

export const Company = Type.Object({
  ticker: Type.String(),
  cik: Nullable(Type.String()),
  name: Type.String(),
  shortName: Type.String(),
});

export const ProxyFiling = Type.Object({
  id: Type.String(),
  ticker: Type.String(),
  company: Type.String(),
  proxyYear: Type.Integer(),
  fiscalYear: Type.Integer(),
  fiscalYearLabel: Type.String(),
  filedAt: Timestamp,
  meetingDate: Nullable(DateString),
  updatedAt: Timestamp,
  ceoName: Type.String(),
  ceoTitle: Type.String(),
  ceoTotal: Type.Number(),
  ceoPriorYearTotal: Nullable(Type.Number()),
  payRatio: Nullable(Type.Number()),
  medianEmployeePay: Nullable(Type.Number()),
});

export const ExecPayData = Type.Object({ company: Company, proxies: Type.Array(ProxyFiling) });

export const ExecPayYearData = Type.Object({
  company: Company,
  year: Type.Integer(),
  proxies: Type.Array(ProxyFiling),
});
