// A real server for the clients' suites: the built CLI on a fresh store holding recorded files (AAPL and
// BARC.L bars, a recorded AAPL quote, the CFTC's weekly file of 14 April 2026, USAspending's DoD-MIT search, a
// TED notice of 31 March 2020, the EIA's Table 1 of the week ending 5 June 2026),
// and keys for every answer a client must handle: good keys of each API, a market key to drive over its
// minute, and keys refused for each reason (a plan ended, one credit left, an email not confirmed, a market
// key with full access).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createAccount, endPlan, setBalance } from '../../src/accounts/accounts.js';
import { createKey } from '../../src/accounts/keys.js';
import { loadFile } from '../../src/ingest/run.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { NO_AGENCIES } from './agency.js';
import { marketKey } from './env.js';
import { asset, real } from './real-data.js';
import { type ServerProcess, startServer } from './server.js';

const FIXTURES = path.resolve('test/fixtures');
export const WEEKLY = real('cftc/weekly/deafut_2026-04-14.zip');
/** A TED award notice published in the Official Journal on 31 March 2020. */
const NOTICE = asset('awards/ted/20-157399-001-EXP.xml');
const TABLE1 = asset('eia/wpsr_table1_week_ending_2026-06-05.csv');

export interface ClientServer {
  server: ServerProcess;
  /** The folder of the store; the suites may write their own files beside it. */
  dir: string;
  /** QUARRY_DATASETS_KEY, QUARRY_MARKET_KEY, QUARRY_LIMITED_KEY (and _SECOND), QUARRY_ENDED_KEY, … */
  keys: Record<string, string>;
  stop(): Promise<void>;
}

export async function startClientServer(): Promise<ClientServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-client-'));
  const env = { ...NO_AGENCIES, QUARRY_DATA_DIR: dir, DATA_API_ENABLED: 'true', LOG_LEVEL: 'silent' };
  const deps = await createDeps(loadConfig(env));
  const keys: Record<string, string> = {};
  try {
    const load = (source: string, file: string, options: Record<string, string> = {}) =>
      loadFile(deps, LOADERS[source] as NonNullable<(typeof LOADERS)[string]>, file, options);
    await load('prices', path.join(FIXTURES, 'market/AAPL.csv'), { ticker: 'AAPL' });
    await load('prices', path.join(FIXTURES, 'market/BARC.L.csv'), { ticker: 'BARC.L' });
    await load('yahoo', path.join(FIXTURES, 'market/quote-AAPL.json'));
    // MSFT's 2021 chart: four dividends, for the clients' actions and total return.
    await load(
      'yahoo',
      real('market/yahoo/chart/historical-via-chart-MSFT-dividends-2021-02-01-to-2022-01-31.csv.json'),
    );
    // REL.L as yfinance wrote it (prices in pounds, dividends in pence): the dividends served repaired.
    const rel = path.join(dir, 'REL-L-1d-bad-div.csv');
    writeFileSync(
      rel,
      gunzipSync(readFileSync(path.join(FIXTURES, 'market/repair/REL-L-1d-bad-div.csv.gz'))),
    );
    await load('prices', rel, { ticker: 'REL.L', unit: 'main' });
    await load('cftc', WEEKLY);
    await load('usaspending', path.join(FIXTURES, 'usaspending/01-award-search-dod-mit.json'));
    await load('ted', NOTICE);
    await load('eia', TABLE1);
    await load('treasury', real('treasury/par-2019_full-year.csv'));
    const account = await createAccount(deps, {
      email: 'client@example.com',
      plan: 'basic',
      emailConfirmed: true,
    });
    keys.QUARRY_DATASETS_KEY = (await createKey(deps, { accountId: account.id, api: 'datasets' })).key;
    keys.QUARRY_MARKET_KEY = await marketKey(deps);
    keys.QUARRY_LIMITED_KEY = await marketKey(deps);
    keys.QUARRY_LIMITED_KEY_SECOND = await marketKey(deps);
    const datasetsKey = async (email: string, confirmed = true) => {
      const owner = await createAccount(deps, { email, plan: 'basic', emailConfirmed: confirmed });
      return { owner, key: (await createKey(deps, { accountId: owner.id, api: 'datasets' })).key };
    };
    // A bulk file is charged once a day per account: each of the two runs of a suite downloads with its own.
    keys.QUARRY_BULK_KEY = (await datasetsKey('bulk@example.com')).key;
    keys.QUARRY_BULK_KEY_SECOND = (await datasetsKey('bulk-second@example.com')).key;
    const ended = await datasetsKey('ended@example.com');
    // Ended long before any day the suite runs on.
    await endPlan(deps, { accountId: ended.owner.id, at: new Date('2020-01-01T00:00:00Z') });
    keys.QUARRY_ENDED_KEY = ended.key;
    const poor = await datasetsKey('poor@example.com');
    await setBalance(deps, { accountId: poor.owner.id, balance: 1 });
    keys.QUARRY_POOR_KEY = poor.key;
    keys.QUARRY_UNCONFIRMED_KEY = await marketKey(deps, { confirmed: false });
    keys.QUARRY_FULL_KEY = await marketKey(deps, { access: 'full' });
  } finally {
    await deps.close();
  }
  const server = await startServer(env);
  return {
    server,
    dir,
    keys,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
