// Companies named by filings: the ticker a route takes, with CIK and names. Kept current by every load
// that names a company; a ticker nobody has loaded is unknown (404).
import type { Kysely, Transaction } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../kernel/errors.js';
import { Nullable } from '../../kernel/schema.js';
import type { Database } from '../../store/schema.js';

/** A company as the EDGAR datasets' answers name it. */
export const Company = Type.Object(
  {
    ticker: Type.String(),
    cik: Nullable(Type.String()),
    name: Type.String(),
    shortName: Type.String(),
  },
  { title: 'Company' },
);

export const CompanyFields = {
  ticker: Type.String({ pattern: '^[A-Z0-9.:-]{1,32}$' }),
  cik: Type.Union([Type.String({ pattern: '^[0-9]{10}$' }), Type.Null()]),
  companyName: Type.String({ minLength: 1, maxLength: 300 }),
  companyShortName: Type.String({ minLength: 1, maxLength: 100 }),
};

export interface CompanyRecord {
  ticker: string;
  cik: string | null;
  companyName: string;
  companyShortName: string;
}

export async function upsertCompany(
  tx: Transaction<Database>,
  record: CompanyRecord,
  at: string,
): Promise<void> {
  const row = {
    ticker: record.ticker,
    cik: record.cik,
    name: record.companyName,
    short_name: record.companyShortName,
    updated_at: at,
  };
  await tx
    .insertInto('companies')
    .values(row)
    .onConflict((oc) =>
      oc.column('ticker').doUpdateSet((eb) => ({
        // A record that does not know the CIK (a CEO-pay table's row) keeps the one held.
        cik: eb.fn.coalesce(eb.ref('excluded.cik'), eb.ref('companies.cik')),
        name: row.name,
        short_name: row.short_name,
        updated_at: at,
      })),
    )
    .execute();
}

export interface Company {
  ticker: string;
  cik: string | null;
  name: string;
  shortName: string;
}

/** The company with this symbol (upper-cased), or 404. */
export async function companyOrNotFound(db: Kysely<Database>, symbol: string): Promise<Company> {
  const ticker = symbol.toUpperCase();
  const row = await db.selectFrom('companies').selectAll().where('ticker', '=', ticker).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No company with symbol ${ticker} in the stored filings.`);
  return { ticker: row.ticker, cik: row.cik, name: row.name, shortName: row.short_name };
}
