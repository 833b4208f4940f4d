// EDGAR's company_tickers.json is a snapshot of every listed ticker (both engines): a later file that no longer
// names a ticker ends it there (search no longer finds it, its CIK no longer maps to it), the revision before
// kept with the time it was superseded; a ticker written with spaces is read; the same file again changes
// nothing. The later file is the real one with one ticker left out and one padded, as SEC's next one differs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../../src/ingest/run.js';
import { tickersByCik } from '../../../src/ingest/sec/registrants.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, ENGINES, marketKey, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset } from '../../helpers/real-data.js';

type Entry = { cik_str: number; ticker: string; title: string };
const TICKERS = asset('sec/company_tickers.json');
const sec = LOADERS.sec as NonNullable<typeof LOADERS.sec>;

for (const { engine, skip } of ENGINES) {
  describe.skipIf(skip)(`company_tickers.json as a snapshot on ${engine}`, () => {
    let env: TestEnv;
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-registrants-'));
    const entries = Object.values(JSON.parse(readFileSync(TICKERS, 'utf8')) as Record<string, Entry>);
    // A registrant with one ticker alone, so that its CIK maps to no other after; and another to pad.
    const once = (e: Entry) => entries.filter((o) => o.cik_str === e.cik_str).length === 1;
    const gone = entries.filter(once)[100]!;
    const padded = entries.filter(once)[200]!;
    beforeAll(async () => {
      env = await testEnv({ engine });
    });
    afterAll(async () => {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const search = async (key: string, q: string) =>
      (
        await env.app.inject({
          method: 'GET',
          url: `/v1/search?q=${encodeURIComponent(q)}`,
          headers: bearer(key),
        })
      )
        .json()
        .items.map((i: { resolved?: { symbol: string }; symbol?: string }) => i.resolved?.symbol ?? i.symbol);

    it('ends what a later snapshot no longer names, keeps what it was, and reads padded tickers', async () => {
      await loadFile(env.deps, sec, TICKERS, { published: '2026-01-05' });
      const key = await marketKey(env.deps);
      expect(await search(key, gone.ticker)).toContain(gone.ticker);
      const cik = String(gone.cik_str).padStart(10, '0');
      expect((await tickersByCik(env.deps.store.db)).get(cik)).toBe(gone.ticker);

      const later = Object.fromEntries(
        entries
          .filter((e) => e !== gone)
          .map((e, i) => [String(i), e === padded ? { ...e, ticker: ` ${e.ticker} ` } : e]),
      );
      const file = path.join(dir, 'company_tickers.json');
      writeFileSync(file, JSON.stringify(later));
      const report = await loadFile(env.deps, sec, file, { published: '2026-06-01' });
      // Every ticker after the one left out moves up a rank (a revision each), and the one left out ends.
      expect(report).toMatchObject({ inserted: 0, revised: entries.length - entries.indexOf(gone) });

      expect(await search(key, gone.ticker)).not.toContain(gone.ticker);
      expect((await tickersByCik(env.deps.store.db)).get(cik)).toBeUndefined();
      expect(await search(key, padded.ticker)).toContain(padded.ticker);
      const revisions = await env.deps.store.db
        .selectFrom('registrants')
        .select(['listed', 'is_current', 'known_at', 'superseded_at'])
        .where('ticker', '=', gone.ticker)
        .orderBy('revision')
        .execute();
      expect(revisions.map((r) => [Number(r.listed), Number(r.is_current), r.superseded_at])).toEqual([
        [1, 0, '2026-06-01T00:00:00.000Z'],
        [0, 1, null],
      ]);
      const again = await loadFile(env.deps, sec, file, { published: '2026-06-01' });
      expect([again.inserted, again.revised]).toEqual([0, 0]);
    });
  });
}
