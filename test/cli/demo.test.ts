// quarry serve --demo: on an empty store it prints a demo account's keys, listens, and loads the bundled files
// while it answers (/readyz says so until they are in); into a store that holds data it loads nothing (the keys
// are still made when there are no accounts); a store with accounts is left as it is.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_AGENCIES } from '../helpers/agency.js';
import { type ServerProcess, startServer } from '../helpers/server.js';
import { callTool, connect } from '../mcp/client.js';

const exec = promisify(execFile);

describe('quarry serve --demo', () => {
  let server: ServerProcess | null = null;
  let dir = '';
  afterEach(async () => {
    await server?.stop();
    server = null;
    rmSync(dir, { recursive: true, force: true });
  });
  const env = () => ({ QUARRY_DATA_DIR: dir, DATA_API_ENABLED: 'true' });
  const keyOf = (kind: string) =>
    (server?.printed.find((line) => line.includes(kind)) ?? '').trim().split(/\s+/).at(-1) ?? '';
  const quarry = async (...args: string[]) =>
    JSON.parse(
      (
        await exec(process.execPath, ['dist/cli/main.js', ...args], {
          env: { ...process.env, ...NO_AGENCIES, ...env() },
        })
      ).stdout,
    );

  it('an empty store: the bundled files load and the printed keys work', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-demo-'));
    // About 47 s alone on this machine (118 files), and slower while the suite's other files share its two
    // cores: the budget is for a hang, not a speed check (the loaders' speed is measured in bench/).
    server = await startServer(env(), ['--demo'], 300_000);
    const key = keyOf('datasets key');
    expect(key).toMatch(/^gds_/);
    expect(keyOf('market-data key')).toMatch(/^svc_mcp_/);
    // The server listens before the bundle is in: /readyz names what is still loading, and answers meanwhile.
    const loading = await fetch(`${server.url}/readyz`);
    expect(loading.status).toBe(503);
    expect(((await loading.json()) as { checks: { bundle: string } }).checks.bundle).toMatch(
      /^loading the bundled data(: \d+ of \d+ files in, now .+)?$/,
    );
    const during = await fetch(`${server.url}/v1/datasets`, { headers: { authorization: `Bearer ${key}` } });
    expect(during.status).toBe(200);
    // The load says when it is done; then the server is ready.
    await server.onStderr(/Loaded \d+ records in/);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: unknown }).checks).toEqual({
      store: 'ok',
      counters: 'ok (in process)',
      migrations: 'ok',
    });
    const res = await fetch(`${server.url}/v1/cftc/cot`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    // The bundle's newest legacy report, 2025-03-18: 316 contracts in deacot2025.zip.
    expect(((await res.json()) as { data: { rows: unknown[] } }).data.rows).toHaveLength(316);
    // EDGAR's files: events, kpis, guidance and a proxy, as a newcomer first asks for them.
    const data = async (url: string) => {
      const answer = await fetch(`${server?.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: Record<string, never> }).data;
    };
    expect((await data('/v1/events/AAPL')).events).toHaveLength(50);
    // The cpi board with its components: August 2025, shelter +0.4 % on the month as the BLS published it.
    const cpi = (await data('/v1/macro/cpi')) as unknown as { release: { period: string }; rows: unknown[] };
    expect(cpi.release.period).toBe('2025-08');
    expect(cpi.rows).toContainEqual(expect.objectContaining({ code: 'SAH1', change: 0.4 }));
    const nvda = await data('/v1/kpis/NVDA?metric=revenue');
    expect(nvda.series).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'revenue:reported:frequency=annual' })]),
    );
    const adbe = await data('/v1/guidance/ADBE?metric=revenue');
    expect(adbe.series).toEqual([
      expect.objectContaining({ latest: expect.objectContaining({ low: 4_750_000_000 }) }),
    ]);
    expect((await data('/v1/exec-pay/CBT')).proxies).toEqual([
      expect.objectContaining({ ceoName: 'Sean D. Keohane' }),
    ]);
    // The market API answers the first tickers people try, in any form, from bars reaching 2025-2026.
    const history = await fetch(
      `${server.url}/v1/history?tickers=NVDA,TSLA,BTC-USD,VOD%20LN%20Equity,SPX%20Index&fields=PX_LAST&start=2025-06-02&end=2026-06-30`,
      { headers: { 'x-api-key': keyOf('market-data key') } },
    );
    const items = ((await history.json()) as { items: { status: string; rows: { date: string }[] }[] }).items;
    expect(items.map((i) => [i.status, i.rows.at(-1)?.date])).toEqual([
      ['ok', '2026-05-01'],
      ['ok', '2026-05-01'],
      ['ok', '2025-12-01'],
      ['ok', '2025-06-27'],
      ['ok', '2026-06-26'],
    ]);
    // Statement fields from the same company facts as kpis: NVIDIA's fiscal 2026 revenue, 215,938 million.
    const statements = await fetch(`${server.url}/v1/data?tickers=NVDA&fields=SALES_REV_TURN`, {
      headers: { 'x-api-key': keyOf('market-data key') },
    });
    expect(((await statements.json()) as { items: unknown[] }).items[0]).toMatchObject({
      status: 'ok',
      values: { SALES_REV_TURN: 215938 },
      periods: { SALES_REV_TURN: '2026-01-25' },
    });
    // Short interest from the bundled key statistics: Amazon's of 2025-01-31 as Yahoo gave it on 2025-02-24.
    const agent = await connect(server.url, keyOf('market-data key'));
    try {
      const short = await callTool(agent, 'market.short_interest', { tickers: ['AMZN', 'CRM', 'GOOG'] });
      const held = (short.structuredContent as { items: Record<string, unknown>[] }).items;
      expect(held.map((i) => i.status)).toEqual(['ok', 'ok', 'ok']);
      expect(held[0]).toMatchObject({
        input: 'AMZN',
        shortInterest: {
          sharesShort: 70_760_125,
          sharesShortPriorMonth: 82_861_847,
          settlementDate: '2025-01-31',
        },
      });
    } finally {
      await agent.close();
    }
    // Instruments by any word of their name: listings held (by a recorded quote, or by bars the demo names),
    // then US listings named by EDGAR's registrant list; a word inside another word is not a match.
    const search = async (q: string) => {
      const answer = await fetch(`${server?.url}/v1/search?q=${q}`, {
        headers: { 'x-api-key': keyOf('market-data key') },
      });
      const body = (await answer.json()) as { items: { symbol: string; name: string }[] };
      return body.items.map((i) => [i.symbol, i.name]);
    };
    // Barclays' London listing first, then its ADR; the bank's exchange-traded notes after them.
    expect((await search('barclays')).slice(0, 3)).toEqual([
      ['BARC.L', 'Barclays PLC'],
      ['BCS', 'BARCLAYS PLC'],
      ['ATMP', 'BARCLAYS BANK PLC'],
    ]);
    expect(await search('vodafone')).toEqual([
      ['VOD.L', 'Vodafone Group Plc'],
      ['VOD', 'VODAFONE GROUP PUBLIC LTD CO'],
      ['VODPF', 'VODAFONE GROUP PUBLIC LTD CO'],
    ]);
    expect(await search('ocado')).toEqual([['OCDO.L', 'Ocado Group plc']]);
    expect((await search('apple')).map(([symbol]) => symbol)).toEqual(['AAPL', 'APLE', 'AAPI']);
    // Awards from USAspending and TED.
    expect((await data('/v1/awards?jurisdiction=GB')).rows).toHaveLength(12);
    const found = (await data('/v1/awards?query=laboratory')).rows as unknown as { id: string }[];
    // The bundled USAspending files name "laboratory" in 14 awards: 3 of the ten DoD-MIT search results, 1 of
    // the two contracts of spending_by_award_contracts.json and all ten actions of the transactions sample.
    expect(found).toHaveLength(14);
    expect((await data(`/v1/awards/${found[0]?.id}`)).award).toMatchObject({ id: found[0]?.id });

    // Every curl example of the README and of docs/ answers real data on the demo, with the keys it printed.
    const docs = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const examples = docs
      .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
      .filter((line) => line.startsWith('curl '));
    expect(examples.length).toBeGreaterThanOrEqual(17);
    for (const line of examples) {
      const address = /'?localhost:8080([^'\s]*)'?/.exec(line)?.[1] as string;
      const header = /-H "([^:]+): ([^"]+)"/.exec(line);
      const headers: Record<string, string> = header
        ? {
            [header[1] as string]: (header[2] as string)
              .replace('$MKEY', keyOf('market-data key'))
              .replace('$KEY', key),
          }
        : {};
      const answer = await fetch(`${server.url}${address}`, { headers });
      expect(answer.status, line).toBe(200);
      if (address.includes('/bulk')) {
        // A bulk file: the layout's header, then a row per record.
        expect((await answer.text()).split('\n').filter(Boolean).length, line).toBeGreaterThan(1);
        continue;
      }
      const body = (await answer.json()) as Record<string, unknown>;
      const items = body.items as { status: string }[] | undefined;
      if (items) {
        // Market examples: every item answered in full.
        expect(items.length, line).toBeGreaterThan(0);
        expect(
          items.map((i) => i.status ?? 'ok'),
          line,
        ).toEqual(items.map(() => 'ok'));
      } else {
        // Dataset and reference examples: a board's rows (or series, reports) hold something; any other
        // answer holds values.
        const held = (body.data ?? body) as Record<string, unknown>;
        const lists = ['rows', 'series', 'reports', 'events', 'proxies', 'changes'].filter((k) =>
          Array.isArray(held[k]),
        );
        const filled = lists.length
          ? lists.every((k) => (held[k] as unknown[]).length > 0)
          : Object.values(held).some((v) => v !== null && v !== '');
        expect(filled, line).toBe(true);
      }
    }
  }, 360_000);

  it('a store with data and no accounts: the demo account and keys, and nothing of the bundle loaded', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-demo-'));
    const imported = await quarry('import', 'cot', path.resolve('test/fixtures/cot-legacy-2025-03.ndjson'));
    expect(imported.inserted).toBe(6);
    server = await startServer(env(), ['--demo']);
    const key = keyOf('datasets key');
    expect(key).toMatch(/^gds_/);
    const res = await fetch(`${server.url}/v1/cftc/cot`, { headers: { authorization: `Bearer ${key}` } });
    const rows = ((await res.json()) as { data: { rows: { contractCode: string }[] } }).data.rows;
    // Only the two imported contracts: the bundle's 353 legacy contracts were not mixed in.
    expect(new Set(rows.map((r) => r.contractCode))).toEqual(new Set(['067651', '088691']));
    expect((await quarry('accounts', 'list')).accounts).toHaveLength(1);
  }, 60_000);

  it('a store with accounts: no demo account, no keys printed', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-demo-'));
    await quarry('accounts', 'create', '--email', 'owner@example.com');
    server = await startServer(env(), ['--demo']);
    expect(server.printed.some((line) => line.includes('shown once'))).toBe(false);
    expect((await quarry('accounts', 'list')).accounts.map((a: { email: string }) => a.email)).toEqual([
      'owner@example.com',
    ]);
  }, 60_000);
});
