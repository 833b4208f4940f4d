// Bounded results: an answer larger than the text budget comes in pages; following the continuations gives
// back exactly the unbounded (REST) answer, and a continuation that is not ours is refused.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccount } from '../../src/accounts/accounts.js';
import { cotImporter } from '../../src/datasets/cot/import.js';
import { importFile } from '../../src/ingest/import.js';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { bearer, customer, marketKey, type TestEnv, testEnv } from '../helpers/env.js';
import { callTool, connect, textOf } from './client.js';

const BUDGET = 2500;
const FIXTURES = path.resolve('test/fixtures/market');

type Item = { input: string; rows?: object[] };
type Body = { items: Item[]; continuation?: string; page?: { start: { element: number; row: number } } };

/** Every page of an answer, following continuations to the end. */
async function allPages(client: Client, tool: string, args: object): Promise<CallToolResult[]> {
  const pages = [await callTool(client, tool, args as Record<string, unknown>)];
  for (;;) {
    const last = pages.at(-1) as CallToolResult;
    expect(last.isError).toBeFalsy();
    const continuation = (last.structuredContent as Body).continuation;
    if (!continuation) return pages;
    pages.push(await callTool(client, tool, { continuation }));
    expect(pages.length).toBeLessThan(100);
  }
}

/** The answer the pages make: their items in order, an item cut across pages joined by its rows. */
function reassemble(pages: CallToolResult[]): object {
  const items: Item[] = [];
  for (const page of pages) {
    const body = page.structuredContent as Body;
    body.items.forEach((item, i) => {
      const continues = i === 0 && (body.page?.start.row ?? 0) > 0;
      const previous = items.at(-1);
      if (continues && previous) previous.rows = [...(previous.rows ?? []), ...(item.rows ?? [])];
      else items.push(structuredClone(item));
    });
  }
  const { continuation: _c, page: _p, ...head } = (pages[0] as CallToolResult).structuredContent as Body;
  return { ...head, items };
}

describe('MCP results within a text budget', () => {
  let env: TestEnv;
  let url: string;
  let key: string;
  let client: Client;
  beforeAll(async () => {
    // A fixed clock: the units of a minute are counted across calls, which must not straddle its end.
    env = await testEnv({
      clock: () => new Date('2026-11-18T10:00:05.000Z'),
      env: { QUARRY_MCP_RESULT_BYTES: String(BUDGET) },
    });
    const prices = LOADERS.prices as NonNullable<typeof LOADERS.prices>;
    await loadFile(env.deps, prices, path.join(FIXTURES, 'AAPL.csv'), { ticker: 'AAPL' });
    await loadFile(env.deps, prices, path.join(FIXTURES, 'BARC.L.csv'), { ticker: 'BARC.L' });
    await importFile(env.deps, cotImporter, path.resolve('test/fixtures/cot-legacy-2025-03.ndjson'));
    url = await env.app.listen({ port: 0, host: '127.0.0.1' });
    key = await marketKey(env.deps);
    client = await connect(url, key);
  });
  afterAll(async () => {
    await client?.close();
    await env.close();
  });

  const args = {
    tickers: ['AAPL', 'NOPE.XX', 'BARC LN Equity'],
    fields: ['PX_LAST', 'PX_VOLUME'],
    start: '2000-01-01',
    end: '2024-01-01',
  };

  it('history: the pages, each under the budget, reassemble into the REST answer', async () => {
    const pages = await allPages(client, 'market.history', args);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(Buffer.byteLength(textOf(page))).toBeLessThanOrEqual(BUDGET);
    const whole = await env.app.inject({
      method: 'POST',
      url: '/v1/history',
      headers: bearer(key),
      payload: args,
    });
    expect(reassemble(pages)).toEqual(whole.json());
    // AAPL.csv's 667 daily bars and the 666 held for BARC.L: every row is on exactly one page.
    const rows = pages.flatMap((p) => (p.structuredContent as Body).items.flatMap((i) => i.rows ?? []));
    expect(rows).toHaveLength(1333);
    expect(((pages[0] as CallToolResult).structuredContent as { page: object }).page).toEqual({
      start: { element: 0, row: 0 },
      totals: { elements: 3, rows: 1333 },
    });
  });

  it('a market call is paid once: its later pages take no unit, and say so', async () => {
    const fresh = await connect(url, await marketKey(env.deps));
    try {
      const pages = await allPages(fresh, 'market.history', args);
      const units = pages.map((p) => (p._meta as { units: { used: number } }).units);
      expect(units[0]).toMatchObject({ used: 1, minute: { remaining: 119 } });
      for (const later of units.slice(1)) expect(later).toEqual({ used: 0, continuation: true });
      const next = await callTool(fresh, 'market.fields', { query: 'price' });
      expect(next._meta).toMatchObject({ units: { used: 1, minute: { remaining: 118 } } });
    } finally {
      await fresh.close();
    }
  });

  it('the first page is the same on every call, continuation included', async () => {
    const [a, b] = [
      await callTool(client, 'market.history', args),
      await callTool(client, 'market.history', args),
    ];
    expect(textOf(a)).toBe(textOf(b));
    expect((a.structuredContent as Body).continuation).toBe((b.structuredContent as Body).continuation);
  });

  it('an answer within the budget is whole: no page, no continuation', async () => {
    const small = await callTool(client, 'market.history', {
      ...args,
      start: '2023-08-21',
      end: '2023-08-25',
    });
    expect(small.structuredContent).not.toHaveProperty('continuation');
    expect(small.structuredContent).not.toHaveProperty('page');
  });

  it('a forged continuation is refused', async () => {
    const first = await callTool(client, 'market.history', args);
    const token = (first.structuredContent as Body).continuation as string;
    const [body, tag] = token.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: { e: number } };
    decoded.p.e = 2;
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${tag}`;
    const refused = await callTool(client, 'market.history', { continuation: forged });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'invalid_params: parameter "continuation" is not a valid cursor (signature mismatch); start from the first page',
    );
  });

  it("another tool's or another account's continuation is refused, and so is one sent with arguments", async () => {
    const first = await callTool(client, 'market.history', args);
    const continuation = (first.structuredContent as Body).continuation as string;
    const elsewhere = await callTool(client, 'market.data', { continuation });
    expect(textOf(elsewhere)).toMatch(/^invalid_params: .*belongs to another query/);
    const other = await connect(url, await marketKey(env.deps));
    try {
      const theirs = await callTool(other, 'market.history', { continuation });
      expect(textOf(theirs)).toMatch(/^invalid_params: .*belongs to another query/);
    } finally {
      await other.close();
    }
    const mixed = await callTool(client, 'market.history', { ...args, continuation });
    expect(textOf(mixed)).toBe('invalid_params: pass continuation alone, as the cut answer gave it');
  });

  it('a dataset answer is paged too; its later pages cost no credits', async () => {
    const { key: datasetsKey, accountId } = await customer(env.deps);
    const datasets = await connect(url, datasetsKey);
    try {
      const pages = await allPages(datasets, 'datasets.cot_contract', { contractCode: '067651' });
      expect(pages.length).toBeGreaterThan(1);
      const costs = pages.map((p) => (p._meta as { credits: { cost: number } }).credits.cost);
      expect(costs).toEqual([2, ...pages.slice(1).map(() => 0)]);
      expect((await getAccount(env.deps.store.db, accountId)).balance).toBe(1_000_000 - 2);
      const whole = await env.app.inject({
        url: '/v1/cftc/cot/contracts/067651',
        headers: bearer(datasetsKey),
      });
      const rows = pages.flatMap((p) => (p.structuredContent as { data: { rows: object[] } }).data.rows);
      expect(rows).toEqual(whole.json().data.rows);
    } finally {
      await datasets.close();
    }
  });
});
