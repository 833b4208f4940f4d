// A dataset tool's answer says what the route's does of itself: its status, each gap and the newest period
// held, in the text above the table and in _meta. The demo's legacy COT (to 2025-03-18) and EIA files
// (petroleum to the week ending 2026-06-05, gas storage to 2026-01-23), read on 25 November 2026.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFile } from '../../src/ingest/run.js';
import { LOADERS } from '../../src/runtime/loaders.js';
import { customer, type TestEnv, testEnv } from '../helpers/env.js';
import { asset } from '../helpers/real-data.js';
import { callTool, connect, textOf } from './client.js';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('dataset tools say their status and gaps', () => {
  let env: TestEnv;
  let url: string;
  let key: string;
  beforeAll(async () => {
    env = await testEnv({ clock: () => NOW });
    const load = (source: 'cftc' | 'eia', file: string, published?: string) =>
      loadFile(env.deps, LOADERS[source] as NonNullable<(typeof LOADERS)['cftc']>, asset(file), {
        ...(published ? { published } : {}),
      });
    await load('cftc', 'cftc/deacot2025.zip');
    await load('eia', 'eia/psw01.xls', '2026-02-11T15:30:00Z');
    await load('eia', 'eia/wpsr_table1_week_ending_2026-06-05.csv', '2026-06-10T14:30:00Z');
    await load('eia', 'eia/ngshistory.xls', '2026-01-29T15:30:00Z');
    url = await env.app.listen({ port: 0, host: '127.0.0.1' });
    key = (await customer(env.deps)).key;
  });
  afterAll(() => env.close());

  it('the cot board: partial, its family’s gap and newest report, above the rows and in _meta', async () => {
    const client = await connect(url, key);
    try {
      const result = await callTool(client, 'datasets.cot_board', {});
      const gap = 'stale: newest legacy report 2025-03-18; the CFTC has published 87 reports since';
      expect(textOf(result).split('\n').slice(0, 3)).toEqual([
        // The newest report's publication on the CFTC's calendar (Friday 15:30 New York), and the test's clock.
        'dataset cot: partial; newest period 2025-03-18; known 2025-03-21T19:30:00.000Z (calendar); read as of 2026-11-25T12:00:00.000Z',
        `gap: ${gap}`,
        'rows:',
      ]);
      expect(result._meta).toMatchObject({
        status: 'partial',
        gaps: [gap],
        newestPeriod: '2025-03-18',
        asOf: '2025-03-21T19:30:00.000Z',
        knownFrom: 'calendar',
        readAsOf: '2026-11-25T12:00:00.000Z',
      });
    } finally {
      await client.close();
    }
  });

  it('the energy board: a gap for petroleum and one for gas storage, each on its own calendar', async () => {
    const client = await connect(url, key);
    try {
      const result = await callTool(client, 'datasets.energy_inventories', {});
      expect(textOf(result).split('\n').slice(0, 3)).toEqual([
        // Wednesday 10:30 New York, the EIA's release of the week ending 2026-06-05, as the demo loads its Table 1
        // (with --published).
        'dataset energy-inventories: partial; newest period 2026-06-05; known 2026-06-10T14:30:00.000Z (published); read as of 2026-11-25T12:00:00.000Z',
        'gap: stale: newest petroleum week 2026-06-05; the EIA has published 23 weekly reports since',
        'gap: stale: newest natural gas week 2026-01-23; the EIA has published 42 weekly reports since',
      ]);
      expect(result._meta).toMatchObject({ status: 'partial', newestPeriod: '2026-06-05' });
      expect((result._meta as { gaps: string[] }).gaps).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});
