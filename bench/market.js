// npm run bench:market: /v1/data with 50 tickers x 25 fields and /v1/history with 10 tickers x 5 fields over
// 20 years of daily bars, against a raw node:http server returning the same bytes, in the same run. Then the
// live path, against an upstream stand-in answering after 50 ms: /v1/data 50 x 25 cold (nothing cached), the
// same request warm (from the market cache) against the stored one, and 100 concurrent cold requests for one
// symbol counted in upstream calls. MARKET_PROFILE=1 runs the stored server under the CPU profiler and names the
// ten costliest functions of its busy time (the figures of that run are then the profiler's, not the path's).

import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { FIELDS, prepareMarket, SYMBOLS } from './market-setup.js';
import { start, stop } from './process.js';
import { profileIn, profilerArgs, topCosts } from './profile.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// One connection: the targets are latencies of a single caller.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
let next = 0;
const measure = (url, rotateKeys) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            setupRequest: (req) => {
              if (rotateKeys)
                req.headers = { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}` };
              return req;
            },
          },
        ],
      },
      (e, r) => (e ? reject(e) : resolve(r)),
    ),
  );

const PROFILE = process.env.MARKET_PROFILE === '1';
const { dataDir, env, keys } = await prepareMarket('market');
const LISTENING = /quarry listening at http:\/\/127\.0\.0\.1:(\d+)/;
const profileFolder = path.join(dataDir, 'profile');
const quarry = await start(
  [...(PROFILE ? profilerArgs(profileFolder, 250) : []), 'dist/cli/main.js', 'serve'],
  env,
  LISTENING,
);
const base = `http://127.0.0.1:${quarry.port}`;
const headers = { authorization: `Bearer ${keys[keys.length - 1]}` };
const cases = [
  ['data 50x25', `/v1/data?tickers=${SYMBOLS.join(',')}&fields=${FIELDS.join(',')}`],
  [
    'history 10x5 20y',
    `/v1/history?tickers=${SYMBOLS.slice(0, 10).join(',')}&fields=price,open,high,low,volume&start=2006-01-01&end=2025-12-31`,
  ],
];
const rows = [];
try {
  for (const [name, route] of cases) {
    const sample = await fetch(base + route, { headers });
    if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}: ${await sample.text()}`);
    const body = await sample.text();
    const bodyFile = path.join(dataDir, 'body.json');
    writeFileSync(bodyFile, body);
    const raw = await start(['bench/raw-server.js'], { BENCH_BODY_FILE: bodyFile }, /listening (\d+)/);
    const rawResult = await measure(`http://127.0.0.1:${raw.port}/`, false);
    raw.child.kill();
    const result = await measure(base + route, true);
    rows.push({
      name,
      bytes: body.length,
      rawP50ms: rawResult.latency.p50,
      p50ms: result.latency.p50,
      p99ms: result.latency.p99,
      requestsPerSecond: Math.round(result.requests.average),
      rawRequestsPerSecond: Math.round(rawResult.requests.average),
      non2xx: result.non2xx,
    });
  }
  console.table(rows);
  console.log('Targets: data p50 <= 3 ms and p99 <= 10 ms, history p50 <= 15 ms.');
  await stop(quarry);
  if (PROFILE) console.table(topCosts(profileIn(profileFolder), 10));
  await live(rows[0].p50ms);
} finally {
  quarry.child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The live path on the same store, the upstream a stand-in answering after 50 ms. */
async function live(storedP50) {
  const upstream = await start(['bench/upstream-server.js'], {}, /listening (\d+)/);
  const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    { ...env, QUARRY_MARKET_UPSTREAM: 'yahoo', QUARRY_YAHOO_URL: upstreamUrl, QUARRY_OPENFIGI_URL: 'none' },
    LISTENING,
  );
  const liveBase = `http://127.0.0.1:${server.port}`;
  const calls = async () => (await fetch(`${upstreamUrl}/calls`)).json();
  const dataRoute = (symbols) => `/v1/data?tickers=${symbols.join(',')}&fields=${FIELDS.join(',')}`;
  const timed = async (route) => {
    const started = performance.now();
    const answer = await fetch(liveBase + route, {
      headers: { authorization: `Bearer ${keys[next++ % keys.length]}` },
    });
    const body = await answer.json();
    if (answer.status !== 200 || body.items.some((i) => i.status !== 'ok'))
      throw new Error(
        `${route.slice(0, 80)}… answered ${answer.status}: ${JSON.stringify(body).slice(0, 300)}`,
      );
    return performance.now() - started;
  };
  try {
    // Cold: each request names 50 symbols never asked before.
    const cold = [];
    let last = [];
    for (let round = 0; round < 11; round += 1) {
      last = Array.from({ length: 50 }, (_, i) => `L${round}Q${i}`);
      cold.push(await timed(dataRoute(last)));
    }
    cold.sort((a, b) => a - b);
    const before = await calls();
    const warm = await measure(liveBase + dataRoute(last), true);
    const afterWarm = await calls();
    // Single-flight: 100 concurrent requests for one symbol not asked before.
    const one = `/v1/data?tickers=ONE1&fields=PX_LAST,VOLATILITY_30D`;
    await Promise.all(Array.from({ length: 100 }, () => timed(one)));
    const afterOne = await calls();
    console.table([
      {
        name: 'data 50x25 live',
        coldP50ms: Math.round(cold[5]),
        coldMaxMs: Math.round(cold.at(-1)),
        warmP50ms: warm.latency.p50,
        storedP50ms: storedP50,
        warmOverStored: Math.round((warm.latency.p50 / Math.max(storedP50, 1)) * 100) / 100,
        warmUpstreamCalls: afterWarm.quote + afterWarm.chart - before.quote - before.chart,
        non2xx: warm.non2xx,
      },
    ]);
    console.log(
      `100 concurrent cold requests for one symbol: ${afterOne.quote - afterWarm.quote} quote call(s), ${afterOne.chart - afterWarm.chart} chart call(s).`,
    );
    console.log(
      'Targets: cold p50 <= 350 ms; warm p50 <= 5 ms and <= 1.5x stored; one call each for 100 requests.',
    );
  } finally {
    server.child.kill();
    upstream.child.kill();
  }
}
