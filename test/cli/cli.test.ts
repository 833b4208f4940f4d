// The admin CLI: one JSON object on stdout, messages on stderr, non-zero exit with a clear message on
// error; it works on the same store as a running server, whose next calls see the change within 2 seconds.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivity } from '../../src/accounts/activity.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { NO_AGENCIES } from '../helpers/agency.js';
import { runQuarry } from '../helpers/cli.js';
import { type ServerProcess, startServer } from '../helpers/server.js';

const exec = promisify(execFile);

describe('quarry CLI', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-cli-'));
  const env = {
    ...process.env,
    ...NO_AGENCIES,
    QUARRY_DATA_DIR: dataDir,
    DATA_API_ENABLED: 'true',
    LOG_LEVEL: 'warn',
  };
  let server: ServerProcess;

  // In-process: these tests are about what the commands do; the binary's own test starts it as a process.
  async function quarry(...args: string[]) {
    const result = await runQuarry(args, env);
    return { ...result, json: result.code === 0 ? JSON.parse(result.stdout) : null };
  }

  beforeAll(async () => {
    expect((await quarry('migrate')).code).toBe(0);
    server = await startServer({ QUARRY_DATA_DIR: dataDir, DATA_API_ENABLED: 'true' });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (key: string) =>
    fetch(`${server.url}/v1/macro/cpi`, { headers: { authorization: `Bearer ${key}` } }).then(
      async (res) => ({
        status: res.status,
        body: (await res.json()) as { error?: string },
        remaining: res.headers.get('x-credits-remaining'),
      }),
    );

  it('accounts create prints {id, email, plan, emailConfirmed}', async () => {
    const result = await quarry(
      'accounts',
      'create',
      '--email',
      'Ops@Example.com',
      '--plan',
      'basic',
      '--confirmed',
    );
    expect(result.code).toBe(0);
    expect(result.json).toEqual({
      id: expect.stringMatching(/^acct_/),
      email: 'ops@example.com',
      plan: 'basic',
      emailConfirmed: true,
    });
    expect(result.stdout.trim().startsWith('{')).toBe(true);
    expect(result.stdout.trim().endsWith('}')).toBe(true);
  });

  it('keys create, then revoke: the running server refuses the key within 2 seconds', async () => {
    const { json: account } = await quarry(
      'accounts',
      'create',
      '--email',
      'keys@example.com',
      '--plan',
      'desk',
      '--confirmed',
    );
    const created = await quarry('keys', 'create', account.id, '--api', 'datasets');
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^key_/),
      api: 'datasets',
      prefix: expect.any(String),
    });
    expect(created.json.key).toMatch(/^gds_[A-Za-z0-9]{33}$/);
    expect(created.stderr).toMatch(/shown once/);
    expect((await call(created.json.key)).status).toBe(200);

    const listed = await quarry('keys', 'list', account.id);
    expect(listed.json.keys).toHaveLength(1);
    expect(JSON.stringify(listed.json)).not.toContain(created.json.key);

    expect((await quarry('keys', 'revoke', created.json.id)).json.revokedAt).toEqual(expect.any(String));
    // The running server is another process with its own clock: the poll's timeout is the 2-second bound.
    await expect
      .poll(async () => (await call(created.json.key)).body.error, { timeout: 2000, interval: 100 })
      .toBe('invalid_key');
  });

  it('set-balance, set-plan and confirm-email reach the running server within 2 seconds', async () => {
    const { json: account } = await quarry(
      'accounts',
      'create',
      '--email',
      'flow@example.com',
      '--plan',
      'desk',
    );
    const { json: key } = await quarry('keys', 'create', account.id, '--api', 'datasets');
    expect((await call(key.key)).body.error).toBe('key_disabled');
    await quarry('accounts', 'confirm-email', account.id);
    await expect.poll(async () => (await call(key.key)).status, { timeout: 2000, interval: 100 }).toBe(200);

    const shown = await quarry('accounts', 'set-balance', account.id, '7');
    expect(shown.json.credits).toMatchObject({ balance: 7 });
    expect((await call(key.key)).remaining).toBe('6');

    await quarry('accounts', 'set-plan', account.id, 'none');
    await expect
      .poll(async () => (await call(key.key)).body.error, { timeout: 2000, interval: 100 })
      .toBe('plan_required');
  });

  it('set-contract and set-market-plan update the account', async () => {
    const { json: account } = await quarry(
      'accounts',
      'create',
      '--email',
      'big@example.com',
      '--plan',
      'enterprise',
      '--confirmed',
    );
    const contract = await quarry(
      'accounts',
      'set-contract',
      account.id,
      '--credits-per-month',
      '5000000',
      '--max-keys',
      '300',
    );
    expect(contract.json.limits).toEqual({ creditsPerMonth: 5000000, creditsPerMinute: 6000, maxKeys: 300 });
    expect(contract.json.credits.balance).toBe(5000000);
    const market = await quarry('accounts', 'set-market-plan', account.id, 'paid');
    expect(market.json.marketPlan).toBe('paid');
    const shown = await quarry('accounts', 'show', account.id);
    expect(shown.json).toMatchObject({ plan: 'enterprise', marketPlan: 'paid', emailConfirmed: true });
    // Plan changes at the command line are in the account's activity, as the console's are.
    await quarry('accounts', 'set-plan', account.id, 'basic', '--ends-at', '2031-01-01T00:00:00Z');
    const deps = await createDeps(loadConfig({ QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    try {
      const activity = await listActivity(deps.store.db, account.id);
      expect(activity.map(({ actor, action, detail }) => [actor, action, detail])).toEqual([
        ['cli', 'plan set', 'basic, ending 2031-01-01T00:00:00.000Z'],
        ['cli', 'market plan set', 'paid'],
      ]);
    } finally {
      await deps.close();
    }
  });

  const failures: [string[], RegExp][] = [
    [['accounts', 'show', 'acct_missing'], /not_found: no account acct_missing/],
    [['accounts', 'create'], /needs --email/],
    [['accounts', 'create', '--email', 'not-an-email'], /not an email address/],
    [['accounts', 'set-plan', 'acct_x', 'gold'], /PLAN must be one of none, basic, desk, enterprise/],
    [['accounts', 'set-balance', 'acct_x', '-5'], /./],
    [['keys', 'create', 'acct_x', '--api', 'ftp'], /--api must be one of datasets, market, news/],
    [['keys', 'revoke', 'key_missing'], /not_found/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['accounts', 'show'], /expected ID/],
    [['import', 'cot', '/no/such/records.ndjson'], /^quarry: no such file: \/no\/such\/records\.ndjson\n$/],
    [['usage', 'acct_missing'], /not_found: no account acct_missing/],
    [['usage', 'acct_x', '--since', 'May'], /./],
    [
      ['ingest', 'cftc', '--ticker', 'CL', 'deafut.txt'],
      /cftc takes no option --ticker \(it takes --published\)/,
    ],
    [['ingest', 'prices', '--through'], /--through needs a value/],
  ];
  for (const [args, message] of failures) {
    it(`quarry ${args.join(' ')} fails with a clear message`, async () => {
      const result = await quarry(...args);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('--help only prints: migrate --help leaves no store behind; --version prints the version', async () => {
    const fresh = path.join(tmpdir(), `quarry-help-${randomUUID()}`);
    const run = (...args: string[]) =>
      exec(process.execPath, ['dist/cli/main.js', ...args], {
        env: { ...process.env, QUARRY_DATA_DIR: fresh },
      });
    const help = await run('migrate', '--help');
    expect(help.stdout).toMatch(/^ {2}quarry migrate /);
    expect(existsSync(fresh)).toBe(false);
    const all = (await run('--help')).stdout;
    for (const command of [
      'serve',
      'mcp',
      'migrate',
      'accounts create',
      'keys create',
      'import',
      'ingest SOURCE',
      'accounts list',
      'usage ID',
    ]) {
      expect(all).toContain(`quarry ${command}`);
    }
    // Every source ingest reads, each with the options its loaders declare, and every agency sync fetches, as
    // the registry and the market declare them.
    const ingest = (await run('ingest', '--help')).stdout;
    const sources = [...ingest.matchAll(/^([a-z-]+): into (.+)$/gm)].map((m) => m[1]);
    expect(sources.sort()).toEqual([
      'bls',
      'cftc',
      'eia',
      'prices',
      'sec',
      'sec-exchanges',
      'sec-facts',
      'ted',
      'treasury',
      'usaspending',
      'yahoo',
    ]);
    expect(ingest).toMatch(/^ {2}--published TIME /m);
    const prices = /^prices: into market\n((?: {2}.*\n)+)/m.exec(ingest)?.[1];
    expect(prices?.match(/--[a-z-]+/g)).toEqual([
      '--ticker',
      '--date-format',
      '--through',
      '--name',
      '--unit',
    ]);
    expect(ingest).toMatch(/CEO-pay table CSV .*\n {4}--fiscal-year YEAR /);
    // A submissions JSON is read once for events, with the proxies' acceptance times beside them.
    expect(ingest.match(/submissions JSON.*$/gm)).toEqual([
      'submissions JSON (a company and its filings); also into proxy-filings',
    ]);
    // One source's help: its files and options, and no other source's.
    const treasury = (await run('ingest', 'treasury', '--help')).stdout;
    expect([...treasury.matchAll(/^([a-z-]+): into (.+)$/gm)].map((m) => m[0])).toEqual([
      'treasury: into treasury-rates',
    ]);
    expect(treasury).toMatch(/Treasury daily par yield curve OData XML feed/);
    expect(treasury).toMatch(/^ {2}--published TIME /m);
    await expect(run('ingest', 'weather', '--help')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/ingest takes a source: .*treasury.*; not "weather"/),
    });
    const sync = /^ {2}sources: (.+)$/m.exec((await run('sync', '--help')).stdout)?.[1];
    expect(sync?.split(', ').sort()).toEqual(['bls', 'cftc', 'eia', 'sec', 'treasury', 'usaspending']);
    expect((await run('--version')).stdout).toBe('0.1.0\n');
  });

  it('import loads interchange records; the same file again changes nothing; a bad line loads nothing', async () => {
    const fixture = path.resolve('test/fixtures/cot-legacy-2025-03.ndjson');
    const first = await quarry('import', 'cot', fixture);
    expect(first.json).toEqual({
      dataset: 'cot',
      file: 'cot-legacy-2025-03.ndjson',
      lines: 6,
      inserted: 6,
      revised: 0,
      unchanged: 0,
      firstDate: '2025-03-04',
      lastDate: '2025-03-18',
    });
    expect((await quarry('import', 'cot', fixture)).json).toMatchObject({ inserted: 0, unchanged: 6 });

    const bad = path.join(dataDir, 'bad.ndjson');
    writeFileSync(bad, `${readFileSync(fixture, 'utf8').split('\n')[0]}\n{"report":"weekly"}\n`);
    const failed = await quarry('import', 'cot', bad);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/load failed, nothing of the file was kept: bad\.ndjson:2: /);

    const unknown = await quarry('import', 'weather', fixture);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no importer for "weather"/);
  });

  it('keys create without a plan is refused with plan_required', async () => {
    const { json: account } = await quarry(
      'accounts',
      'create',
      '--email',
      'noplan@example.com',
      '--confirmed',
    );
    const result = await quarry('keys', 'create', account.id, '--api', 'datasets');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/plan_required/);
  });

  it('a record error names the field of the record kind it is: a malformed date is a malformed date', async () => {
    const bad = path.join(dataDir, 'bad-week.ndjson');
    writeFileSync(
      bad,
      '{"type":"observation","series":"WCESTUS1","weekEnding":"2026-6-05","value":426485}\n',
    );
    const result = await quarry('import', 'energy-inventories', bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'quarry: load failed, nothing of the file was kept: bad-week.ndjson:1: field "weekEnding" must match format "date"\n',
    );
    writeFileSync(bad, '{"type":"weekly","series":"WCESTUS1"}\n');
    expect((await quarry('import', 'energy-inventories', bad)).stderr).toMatch(
      /bad-week\.ndjson:1: field "type" must be one of series, observation, report/,
    );
  });

  it('accounts list: every account oldest first; --email keeps the addresses containing the text, any case', async () => {
    const a = (await quarry('accounts', 'create', '--email', 'list-one@lister.test')).json;
    const b = (await quarry('accounts', 'create', '--email', 'list-two@lister.test', '--plan', 'basic')).json;
    const all = (await quarry('accounts', 'list')).json.accounts as { id: string }[];
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(all.findIndex((x) => x.id === a.id)).toBeLessThan(all.findIndex((x) => x.id === b.id));
    const some = (await quarry('accounts', 'list', '--email', 'LISTER.test')).json.accounts;
    expect(some).toEqual([
      {
        id: a.id,
        email: 'list-one@lister.test',
        emailConfirmed: false,
        plan: 'none',
        marketPlan: 'free',
        createdAt: expect.any(String),
      },
      {
        id: b.id,
        email: 'list-two@lister.test',
        emailConfirmed: false,
        plan: 'basic',
        marketPlan: 'free',
        createdAt: expect.any(String),
      },
    ]);
    // LIKE's wildcards are text here.
    expect((await quarry('accounts', 'list', '--email', 'list_')).json.accounts).toEqual([]);
    expect((await quarry('accounts', 'list', '--email', '%')).json.accounts).toEqual([]);
  });

  it('usage ACCOUNT: credits and market-data units by day, as the running server metered them', async () => {
    const account = (
      await quarry(
        'accounts',
        'create',
        '--email',
        'usage@example.com',
        '--plan',
        'desk',
        '--market-plan',
        'paid',
        '--confirmed',
      )
    ).json;
    const datasetsKey = (await quarry('keys', 'create', account.id, '--api', 'datasets')).json.key;
    const market = (await quarry('keys', 'create', account.id, '--api', 'market', '--access', 'market-data'))
      .json;
    for (let i = 0; i < 3; i += 1) expect((await call(datasetsKey)).status).toBe(200);
    const tickers = Array.from({ length: 21 }, (_, i) => `T${i}`).join(',');
    const quotes = await fetch(`${server.url}/v1/quotes?tickers=${tickers}`, {
      headers: { authorization: `Bearer ${market.key}` },
    });
    expect(quotes.headers.get('x-service-units')).toBe('2');
    // The day the server metered the calls on, by its own clock (its answer's Date header).
    const today = new Date(quotes.headers.get('date') as string).toISOString().slice(0, 10);
    // Units are written by the server every two seconds.
    await expect
      .poll(async () => (await quarry('usage', account.id)).json.units, { timeout: 5000, interval: 250 })
      .toEqual([{ day: today, keyId: market.id, door: 'market', calls: 1, units: 2 }]);
    const usage = (await quarry('usage', account.id)).json;
    expect(usage.credits).toEqual([{ day: today, calls: 3, charged: 3, refunded: 0 }]);
    expect(usage.since).toMatch(/^\d{4}-\d{2}-01$/);
    expect((await quarry('usage', account.id, '--since', '2999-01-01')).json).toMatchObject({
      credits: [],
      units: [],
    });
  });

  it('on a terminal, a load shows a progress line that moves while a workbook is read, with rate and ETA', async () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'quarry-tty-'));
    const command = `${process.execPath} dist/cli/main.js ingest eia assets/eia/psw01.xls > /dev/null`;
    // script(1) gives the command a terminal; what it draws comes back on script's stdout.
    const { stdout } = await exec('script', ['-qec', command, '/dev/null'], {
      env: { ...env, QUARRY_DATA_DIR: fresh },
    });
    rmSync(fresh, { recursive: true, force: true });
    const lines = stdout.split('\r').filter((line) => line.includes('psw01.xls ['));
    const shares = lines.map((line) => Number(/\] (\d+)%/.exec(line)?.[1]));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(new Set(shares).size).toBeGreaterThanOrEqual(2);
    expect(shares).toEqual([...shares].sort((x, y) => x - y));
    expect(lines[0]).toMatch(
      /^energy-inventories psw01\.xls \[#* *\] \d+% [\d,]+ records [\d,]+\/s ETA \d+s/,
    );
    expect(lines.at(-1)).toMatch(/\] 100% 33,917 records [\d,]+\/s done/);
  });

  it('ingest of several files: the committed ones are reported with their summaries, the failed ones named; exit 1', async () => {
    const good = path.resolve('assets/eia/wpsr_table1_week_ending_2026-06-05.csv');
    const result = await quarry('ingest', 'eia', '/no/such/psw01.xls', good, '/tmp');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.files.map((f: { file: string; lines: number }) => [f.file, f.lines > 0])).toEqual([
      ['wpsr_table1_week_ending_2026-06-05.csv', true],
    ]);
    expect(report.failed).toEqual([
      { file: '/no/such/psw01.xls', error: 'no such file: /no/such/psw01.xls' },
      { file: '/tmp', error: 'load failed, nothing of the file was kept: tmp: is a folder, not a file' },
    ]);
    expect(result.stderr).toBe(
      'quarry: no such file: /no/such/psw01.xls\nquarry: load failed, nothing of the file was kept: tmp: is a folder, not a file\n',
    );
  });

  it('status: each dataset with what the store holds and its collection jobs', async () => {
    const { json } = await quarry('status');
    expect(json.datasets.map((d: { dataset: string }) => d.dataset)).toEqual([
      'awards',
      'kpis-guidance',
      'exec-pay',
      'events',
      'cpi',
      'energy-inventories',
      'cot',
      'treasury-rates',
    ]);
    const cot = json.datasets.find((d: { dataset: string }) => d.dataset === 'cot');
    // The cot records of this store came through quarry import (no agency file), and no collector has run.
    expect(cot).toMatchObject({
      files: 0,
      lastLoad: null,
      jobs: [{ job: 'cftc', collected: false, lastRunAt: null }],
    });
    expect(cot.jobs[0].calendar).toMatch(/^Fridays 15:30 ET/);
    expect(
      json.datasets
        .find((d: { dataset: string }) => d.dataset === 'energy-inventories')
        .jobs.map((j: { job: string }) => j.job),
    ).toEqual(['eia-petroleum', 'eia-gas-storage']);
  });
});
