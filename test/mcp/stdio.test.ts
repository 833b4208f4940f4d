// quarry mcp: the same tools over stdio for a local agent, the key from QUARRY_API_KEY, checked on every call.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { createKey, revokeKey } from '../../src/accounts/keys.js';
import { loadFile } from '../../src/ingest/run.js';
import type { Deps } from '../../src/kernel/deps.js';
import { loadConfig } from '../../src/runtime/config.js';
import { createDeps } from '../../src/runtime/deps.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { NO_AGENCIES } from '../helpers/agency.js';
import { faketimeLib, movableClock } from '../helpers/server.js';
import { callTool, textOf } from './client.js';

// The server's clock is moved through libfaketime: without it (a machine without Debian's faketime) the
// suite is skipped, as the other tests that set a child's clock are.
describe.skipIf(faketimeLib() === null)('quarry mcp over stdio', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-stdio-'));
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'quarry-agent-'));
  let deps: Deps;
  let key: { id: string; key: string };
  let client: Client;
  // The server's clock, which the test moves past the second a key's account is held.
  const clock = movableClock(new Date('2026-03-02T15:00:00Z'));
  beforeAll(async () => {
    deps = await createDeps(loadConfig({ ...NO_AGENCIES, QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    const yahoo = LOADERS.yahoo as NonNullable<typeof LOADERS.yahoo>;
    await loadFile(deps, yahoo, path.resolve('test/fixtures/market/quote-AAPL.json'));
    const account = await createAccount(deps, {
      email: 'stdio@example.com',
      marketPlan: 'paid',
      emailConfirmed: true,
    });
    key = await createKey(deps, { accountId: account.id, api: 'market' });
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      // As an agent starts it (the README's configuration): from a directory of its own, by absolute paths.
      new StdioClientTransport({
        command: process.execPath,
        args: [path.resolve('dist/cli/main.js'), 'mcp'],
        cwd: elsewhere,
        // Every upstream is a closed local port: the tools answer from the store.
        env: {
          ...NO_AGENCIES,
          ...clock.env,
          QUARRY_DATA_DIR: dataDir,
          QUARRY_API_KEY: key.key,
          LOG_LEVEL: 'silent',
        },
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await deps.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('lists the market tools and answers a call from the store', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('market.short_interest');
    const result = await callTool(client, 'market.quotes', { tickers: ['AAPL'] });
    // The table's row (a line before the header says the quote is old, on any day after it was taken).
    const row = textOf(result)
      .split('\n')
      .find((line) => line.startsWith('AAPL,'));
    expect(row?.startsWith('AAPL,ok,AAPL,Apple Inc.,244.6,USD,')).toBe(true);
  });

  it('a key revoked during the session is refused on the next call', async () => {
    await revokeKey(deps, { keyId: key.id });
    clock.move(2000);
    const result = await callTool(client, 'market.quotes', { tickers: ['AAPL'] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('invalid_key: The API key is not recognised or was revoked.');
  });

  it("docs/api.md's client configuration is strict JSON and starts the CLI this way", () => {
    const readme = readFileSync('docs/api.md', 'utf8');
    const block = /```json\n(\{\n {2}"mcpServers"[\s\S]*?)```/.exec(readme)?.[1] as string;
    const local = JSON.parse(block).mcpServers['quarry-local'];
    expect(local.command).toBe('node');
    expect(local.args).toEqual(['/path/to/quarry/dist/cli/main.js', 'mcp']);
    expect(path.isAbsolute(local.env.QUARRY_DATA_DIR)).toBe(true);
  });

  it('without QUARRY_API_KEY it says what it needs and exits non-zero', () => {
    const run = spawnSync(process.execPath, ['dist/cli/main.js', 'mcp'], {
      env: { ...NO_AGENCIES, QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('QUARRY_API_KEY');
    expect(run.stdout).toBe('');
  });
});
