// Each revision says where its known time came from, in the change feed and the bulk file alike: a record new
// to the store from its agency's calendar, a publication time given with the file as given, a revision of a
// held record from its load.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cotImporter } from '../../src/datasets/cot/import.js';
import { importRecords } from '../../src/ingest/import.js';
import { bearer, type Customer, customer, ENGINES, type TestEnv, testEnv } from '../helpers/env.js';

const FILE = new URL('../fixtures/cot-legacy-2025-03.ndjson', import.meta.url);
const RECORDS = readFileSync(FILE, 'utf8')
  .trim()
  .split('\n')
  .map((text) => JSON.parse(text) as Record<string, unknown>);

async function* lines(records: readonly Record<string, unknown>[]) {
  let line = 0;
  for (const value of records) yield { line: ++line, value };
}

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`where a revision's known time came from, on ${engine}`, () => {
    let env: TestEnv;
    let user: Customer;
    const loadedAt = new Date('2026-11-20T10:00:00.000Z');
    beforeAll(async () => {
      env = await testEnv({ engine, clock: () => new Date('2026-11-25T12:00:00.000Z') });
      user = await customer(env.deps);
    });
    afterAll(() => env.close());

    type Change = {
      key: Record<string, string>;
      revision: number;
      knownAt: string;
      knownFrom: string | null;
    };
    const feed = async (): Promise<Change[]> => {
      const answer = await env.app.inject({
        url: '/v1/datasets/cot/changes?limit=1000',
        headers: bearer(user.key),
      });
      return answer.json().data.changes;
    };

    it('a new record from the calendar, a given publication as given, a revision from its load', async () => {
      // The first two reports as new records: known on the CFTC's calendar (the Friday after each).
      const [first, second, ...rest] = RECORDS;
      await importRecords(env.deps.store.db, cotImporter, lines([first!, second!]), 'a.ndjson', loadedAt);
      // The rest with a publication time given for the file.
      const given = '2025-03-21T19:31:00.000Z';
      await importRecords(
        env.deps.store.db,
        cotImporter,
        lines(rest),
        'b.ndjson',
        loadedAt,
        undefined,
        given,
      );
      // The first record again with another open interest: a revision, known from its load.
      const revised = { ...first, openInterest: Number(first!.openInterest) + 1 };
      const later = new Date('2026-11-21T10:00:00.000Z');
      await importRecords(env.deps.store.db, cotImporter, lines([revised]), 'c.ndjson', later);

      const changes = await feed();
      expect(changes.map((c) => [c.key.reportDate, c.revision, c.knownAt, c.knownFrom])).toEqual([
        // WTI's reports of 4 and 11 March 2025: out on the Fridays after, 15:30 in New York (EST, then EDT).
        [first!.reportDate, 1, '2025-03-07T20:30:00.000Z', 'calendar'],
        [second!.reportDate, 1, '2025-03-14T19:30:00.000Z', 'calendar'],
        ...rest.map((r) => [r.reportDate, 1, given, 'published']),
        [first!.reportDate, 2, later.toISOString(), 'load'],
      ]);

      const bulk = await env.app.inject({
        url: '/v1/datasets/cot/bulk?format=ndjson',
        headers: bearer(user.key),
      });
      const rows = bulk.body
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text) as { reportDate: string; revision: number; knownFrom: string });
      // The bulk file holds the current revisions: the same sources as the feed says of them.
      expect(rows.map((r) => [r.reportDate, r.revision, r.knownFrom]).sort()).toEqual(
        [
          [first!.reportDate, 2, 'load'],
          [second!.reportDate, 1, 'calendar'],
          ...rest.map((r) => [r.reportDate, 1, 'published']),
        ].sort(),
      );
    });
  });
}
