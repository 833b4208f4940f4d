// Migrations belong to their owners and run in the order each lists them, owners in the order the runtime
// hands them over; a store that applied an older set takes an owner's new migration though other owners'
// later ones are applied already. Both engines.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/runtime/migrations.js';
import { openStore } from '../../src/store/engine.js';
import { migrate, ownedMigrations, pendingMigrations } from '../../src/store/migrate.js';
import { ENGINES, freshPostgres } from '../helpers/env.js';

const noop = { up: async () => {} };

describe('owned migrations', () => {
  it('refuse a name two owners declare', () => {
    expect(() =>
      ownedMigrations([
        { owner: 'store', migrations: { 'a/one': noop } },
        { owner: 'cot', migrations: { 'a/one': noop } },
      ]),
    ).toThrow('migration a/one is declared twice (the second by cot)');
  });

  for (const { engine, skip } of ENGINES) {
    it.skipIf(skip)(
      `on ${engine}: run in the owners' order, and a new one of an earlier owner runs last`,
      async () => {
        const postgres = engine === 'postgres' ? await freshPostgres() : null;
        const store = openStore({
          databaseUrl: postgres?.url ?? null,
          dataDir: mkdtempSync(path.join(tmpdir(), 'quarry-order-')),
        });
        try {
          // A store from before the market named its listings and the store owned its settings table: every
          // other migration applied, and the settings table as the awards' 006 made it when it landed.
          const later = ['market/listings', 'store/settings'];
          const older = Object.fromEntries(
            Object.entries(MIGRATIONS).filter(([name]) => !later.includes(name)),
          );
          const applied = await migrate(store, older);
          expect(applied).toEqual(Object.keys(older));
          // The market's runs before the datasets' in a fresh store, not by its name ("011" after "002-cot"),
          // and EDGAR's filings tables before the datasets that change them.
          expect(applied.indexOf('011-market')).toBeLessThan(applied.indexOf('002-cot'));
          expect(applied.indexOf('007-filings')).toBeLessThan(applied.indexOf('029-events-known-at'));
          expect(applied.indexOf('006-awards')).toBeLessThan(applied.indexOf('019-award-details'));
          const db = store.db as unknown as import('kysely').Kysely<Record<string, Record<string, string>>>;
          await db.schema
            .createTable('settings')
            .addColumn('name', 'text', (c) => c.primaryKey())
            .addColumn('value', 'text', (c) => c.notNull())
            .execute();
          await db.insertInto('settings').values({ name: 'cursor-secret', value: 's3cret' }).execute();
          expect(await pendingMigrations(store, MIGRATIONS)).toEqual(['store/settings', 'market/listings']);
          expect(await migrate(store, MIGRATIONS)).toEqual(['store/settings', 'market/listings']);
          // The secret the store had is kept: the settings migration makes the table only where there is none.
          expect(await db.selectFrom('settings').selectAll().execute()).toEqual([
            { name: 'cursor-secret', value: 's3cret' },
          ]);
          await store.db
            .insertInto('market_listings')
            .values({ symbol: 'BARC.L', name: 'Barclays PLC', source: 't', loaded_at: 't' })
            .execute();
          expect(await migrate(store, MIGRATIONS)).toEqual([]);
        } finally {
          await store.close();
        }
      },
    );
  }
});
