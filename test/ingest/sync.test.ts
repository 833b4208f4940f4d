// quarry sync: the agencies' own files fetched from their hosts (a local stand-in serving the real files in
// assets/ and test/fixtures/real/) and loaded through the loaders; unchanged files are not downloaded again, a
// changed one loads as revisions, and a file the agency does not publish or cannot serve leaves the store
// untouched.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/datasets/registry.js';
import { collect, type SyncReport } from '../../src/ingest/collect.js';
import { MockAgency, NO_AGENCIES } from '../helpers/agency.js';
import { runQuarry } from '../helpers/cli.js';
import { type TestEnv, testEnv } from '../helpers/env.js';
import { asset, readText, real } from '../helpers/real-data.js';

const HISTORY = '/files/dea/history';

const outcomes = (report: SyncReport) => Object.fromEntries(report.files.map((f) => [f.name, f.outcome]));

describe('quarry sync cftc against the CFTC host', () => {
  const agency = new MockAgency();
  let env: TestEnv;
  const sync = () => {
    const { collection, loaders } = COLLECTIONS.get('cftc') as NonNullable<
      ReturnType<typeof COLLECTIONS.get>
    >;
    return collect(env.deps, 'cftc', collection, loaders);
  };
  const rows = async () =>
    Number(
      (
        await env.deps.store.db
          .selectFrom('cot_records')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    await agency.start();
    agency.serve(`${HISTORY}/deacot2021.zip`, asset('cftc/deacot2021.zip'));
    agency.serve(`${HISTORY}/fut_disagg_txt_2020.zip`, asset('cftc/fut_disagg_txt_2020.zip'));
    // The 2021 disaggregated history as it stood in March (eleven weeks); the full year comes later.
    agency.serve(`${HISTORY}/fut_disagg_txt_2021.zip`, real('cftc/fut_disagg_txt_2021_f_year.zip'));
    env = await testEnv({
      clock: () => new Date('2021-06-15T12:00:00Z'),
      env: {
        ...agency.env(),
        QUARRY_FETCH_TIMEOUT_MS: '500',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await env.close();
    await agency.stop();
  });

  it('first run: this and last year’s histories of both families; one the CFTC does not publish is reported', async () => {
    const report = await sync();
    // The current week's files are not on this stand-in (they are below): reported as not published.
    expect(outcomes(report)).toEqual({
      'deacot2020.zip': 'not_published',
      'fut_disagg_txt_2020.zip': 'loaded',
      'deacot2021.zip': 'loaded',
      'fut_disagg_txt_2021.zip': 'loaded',
      'deafut.txt': 'not_published',
      'f_disagg.txt': 'not_published',
    });
    const loaded = Object.fromEntries(report.files.map((f) => [f.name, f.load?.lines]));
    // Data rows as the PROVENANCE counts them: 2,485 (2020 to 03-24), 13,038 legacy 2021, 2,178 (eleven weeks).
    expect(loaded).toMatchObject({
      'fut_disagg_txt_2020.zip': 2485,
      'deacot2021.zip': 13038,
      'fut_disagg_txt_2021.zip': 2178,
    });
    expect(await rows()).toBe(2485 + 13038 + 2178);
    expect(report.files[0]?.url).toBe(`${agency.url}${HISTORY}/deacot2020.zip`);
    for (const request of agency.requests) {
      expect(request.headers['user-agent']).toBe('Quarry data collector (ops@quarry.example)');
    }
    const sources = await env.deps.store.db.selectFrom('source_files').select('name').execute();
    expect(sources.map((s) => s.name).sort()).toEqual([
      'deacot2021.zip',
      'fut_disagg_txt_2020.zip',
      'fut_disagg_txt_2021.zip',
    ]);
  });

  it('second run: every file asked for conditionally, none downloaded, nothing changed', async () => {
    agency.requests.length = 0;
    const report = await sync();
    expect(outcomes(report)).toEqual({
      'deacot2020.zip': 'not_published',
      'fut_disagg_txt_2020.zip': 'unchanged',
      'deacot2021.zip': 'unchanged',
      'fut_disagg_txt_2021.zip': 'unchanged',
      'deafut.txt': 'not_published',
      'f_disagg.txt': 'not_published',
    });
    expect(agency.requests.map((r) => r.status)).toEqual([404, 304, 304, 304, 404, 404]);
    expect(agency.requests.slice(1, 4).every((r) => r.headers['if-none-match'])).toBe(true);
    expect(await rows()).toBe(2485 + 13038 + 2178);
  });

  it('the year grows: the new weeks load and the weeks already held are unchanged', async () => {
    agency.serve(`${HISTORY}/fut_disagg_txt_2021.zip`, asset('cftc/fut_disagg_txt_2021.zip'));
    const report = await sync();
    const grown = report.files.find((f) => f.name === 'fut_disagg_txt_2021.zip');
    // 10,484 data rows for 51 weeks, of which the 2,178 of the first eleven weeks are byte-identical.
    expect(grown).toMatchObject({
      outcome: 'loaded',
      load: { lines: 10484, inserted: 8306, unchanged: 2178, revised: 0 },
    });
    expect(await rows()).toBe(2485 + 13038 + 10484);
  });

  it('a corrected figure in a republished file loads as a revision; the earlier one is kept', async () => {
    const text = readText(real('cftc/fut_disagg_txt_2021_f_year.zip'));
    const lines = text.split('\n');
    const fields = (lines[1] as string).split(',');
    fields[7] = ` ${Number(fields[7]) + 1}`; // Open_Interest_All of the first data row
    lines[1] = fields.join(',');
    agency.serve(`${HISTORY}/fut_disagg_txt_2021.zip`, Buffer.from(lines.join('\n'), 'latin1'));
    const report = await sync();
    expect(report.files.find((f) => f.name === 'fut_disagg_txt_2021.zip')).toMatchObject({
      outcome: 'loaded',
      load: { lines: 2178, revised: 1, unchanged: 2177, inserted: 0 },
    });
  });

  it('a 500, a host that does not answer, and a file that is not a report: reported, the store untouched', async () => {
    const before = await rows();
    const versions = await env.deps.store.db.selectFrom('source_files').select('id').execute();
    agency.fail(`${HISTORY}/fut_disagg_txt_2020.zip`, 500);
    agency.fail(`${HISTORY}/deacot2021.zip`, 'hang');
    agency.serve(`${HISTORY}/fut_disagg_txt_2021.zip`, Buffer.from('<html>Service maintenance</html>\n'));
    const report = await sync();
    expect(report.files.map(({ name, outcome, reason }) => ({ name, outcome, reason }))).toEqual([
      { name: 'deacot2020.zip', outcome: 'not_published', reason: 'HTTP 404' },
      { name: 'fut_disagg_txt_2020.zip', outcome: 'unreachable', reason: 'HTTP 500' },
      { name: 'deacot2021.zip', outcome: 'unreachable', reason: 'no answer within 500 ms' },
      {
        name: 'fut_disagg_txt_2021.zip',
        outcome: 'failed',
        reason: expect.stringMatching(/fut_disagg_txt_2021\.zip/),
      },
      { name: 'deafut.txt', outcome: 'not_published', reason: 'HTTP 404' },
      { name: 'f_disagg.txt', outcome: 'not_published', reason: 'HTTP 404' },
    ]);
    expect(await rows()).toBe(before);
    expect(await env.deps.store.db.selectFrom('source_files').select('id').execute()).toEqual(versions);
    agency.fail(`${HISTORY}/fut_disagg_txt_2020.zip`, null);
    agency.fail(`${HISTORY}/deacot2021.zip`, null);
  });
});

describe("quarry sync cftc: the current week's file", () => {
  const agency = new MockAgency();
  let env: TestEnv;
  beforeAll(async () => {
    await agency.start();
    // What the CFTC's newcot folder held after the release of Friday 10 July 2026 (the 7 July report).
    agency.serve('/dea/newcot/deafut.txt', real('cftc/weekly/deafut_2026-07-07.zip'));
    env = await testEnv({ clock: () => new Date('2026-07-10T20:00:00Z'), env: agency.env() });
  });
  afterAll(async () => {
    await env.close();
    await agency.stop();
  });

  it('is fetched with the year files and loads as that week’s records', async () => {
    const { collection, loaders } = COLLECTIONS.get('cftc') as NonNullable<
      ReturnType<typeof COLLECTIONS.get>
    >;
    const report = await collect(env.deps, 'cftc', collection, loaders);
    expect(report.files.find((f) => f.name === 'deafut.txt')).toMatchObject({
      url: `${agency.url}/dea/newcot/deafut.txt`,
      outcome: 'loaded',
      load: { lines: 352, inserted: 352, firstDate: '2026-07-07', lastDate: '2026-07-07' },
    });
    expect(agency.requests.map((r) => r.path)).toEqual([
      `${HISTORY}/deacot2025.zip`,
      `${HISTORY}/fut_disagg_txt_2025.zip`,
      `${HISTORY}/deacot2026.zip`,
      `${HISTORY}/fut_disagg_txt_2026.zip`,
      '/dea/newcot/deafut.txt',
      '/dea/newcot/f_disagg.txt',
    ]);
  });
});

describe('quarry sync eia and bls', () => {
  const agency = new MockAgency();
  let env: TestEnv;
  beforeAll(async () => {
    await agency.start();
    agency.serve('/wpsr/psw01.xls', asset('eia/psw01.xls'));
    agency.serve('/wpsr/table1.csv', asset('eia/wpsr_table1_week_ending_2026-06-05.csv'));
    agency.serve('/ngs/ngshistory.xls', asset('eia/ngshistory.xls'));
    agency.serve('/pub/time.series/cu/cu.item', asset('bls/cu.item'));
    agency.serve('/pub/time.series/cu/cu.series', asset('bls/cu.series'));
    agency.serve('/pub/time.series/cu/cu.data.1.AllItems', asset('bls/cu.data.1.AllItems'));
    env = await testEnv({
      env: {
        QUARRY_CONTACT: 'ops@quarry.example',
        QUARRY_EIA_URL: agency.url,
        QUARRY_BLS_URL: `${agency.url}/`,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await env.close();
    await agency.stop();
  });

  const run = (source: string) => {
    const { collection, loaders } = COLLECTIONS.get(source) as NonNullable<
      ReturnType<typeof COLLECTIONS.get>
    >;
    return collect(env.deps, source, collection, loaders);
  };

  it('eia: the stocks workbook, Table 1 and the gas storage history load; a second run changes nothing', async () => {
    const report = await run('eia');
    expect(outcomes(report)).toEqual({
      'psw01.xls': 'loaded',
      'table1.csv': 'loaded',
      'ngshistory.xls': 'loaded',
    });
    expect(report.files[0]?.load?.lines).toBe(33917);
    expect(outcomes(await run('eia'))).toEqual({
      'psw01.xls': 'unchanged',
      'table1.csv': 'unchanged',
      'ngshistory.xls': 'unchanged',
    });
  });

  it('bls: cu.item first, then the series and the all-items index values', async () => {
    const report = await run('bls');
    expect(outcomes(report)).toEqual({
      'cu.item': 'loaded',
      'cu.series': 'loaded',
      'cu.data.1.AllItems': 'loaded',
    });
    expect(report.files.map((f) => f.url)).toEqual([
      `${agency.url}/pub/time.series/cu/cu.item`,
      `${agency.url}/pub/time.series/cu/cu.series`,
      `${agency.url}/pub/time.series/cu/cu.data.1.AllItems`,
    ]);
    // Counted apart from the loader (awk over the files): 400 items; 724 monthly current-base CPI-U U.S. city
    // average series; 1,359 + 1,359 + 951 monthly values of CUUR0000SA0, CUUR0000AA0 and CUSR0000SA0, less
    // the three October 2025 values the BLS prints as "-" (the shutdown).
    expect(report.files.map((f) => [f.load?.lines, f.load?.firstDate, f.load?.lastDate])).toEqual([
      [400, null, null],
      [724, null, null],
      [3666, '1913-01-01', '2026-03-01'],
    ]);
  });
});

describe('quarry sync, the command', () => {
  const agency = new MockAgency();
  beforeAll(() => agency.start());
  afterAll(() => agency.stop());

  // In-process: the command's behaviour is what is tested here, not the binary.
  const quarry = (env: Record<string, string>, ...args: string[]) =>
    runQuarry(args, { ...process.env, ...NO_AGENCIES, LOG_LEVEL: 'warn', ...env });

  it('prints one JSON object; exits 0 when files are missing upstream, 1 when a fetched file fails to load', async () => {
    const dir = path.join((await import('node:os')).tmpdir(), `quarry-sync-${process.pid}`);
    const env = { QUARRY_DATA_DIR: dir, QUARRY_CONTACT: 'ops@quarry.example', QUARRY_EIA_URL: agency.url };
    const missing = await quarry(env, 'sync', 'eia');
    expect(missing.code).toBe(0);
    expect(JSON.parse(missing.stdout).files.map((f: { outcome: string }) => f.outcome)).toEqual([
      'not_published',
      'not_published',
      'not_published',
    ]);
    agency.serve('/wpsr/psw01.xls', Buffer.from('not a workbook'));
    const failed = await quarry(env, 'sync', 'eia');
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).files[0]).toMatchObject({ name: 'psw01.xls', outcome: 'failed' });
    const anonymous = await quarry({ QUARRY_DATA_DIR: dir, QUARRY_EIA_URL: agency.url }, 'sync', 'eia');
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/QUARRY_CONTACT: not set/);
    const unknown = await quarry(env, 'sync', 'weather');
    expect(unknown.stderr).toMatch(/sync takes a source: cftc, eia, bls|sync takes a source: /);
  });
});
