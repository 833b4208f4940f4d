// A stand-in for Yahoo Finance for the live-data benchmark: answers every data request after BENCH_UPSTREAM_MS
// (50 ms), for any symbol. Quotes are the bundled recorded AAPL quote under the asked symbol (market closed, so
// a copy stays fresh through the run); charts are 20 years of synthetic weekday bars. GET /calls tells how many
// quote and chart calls it answered.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const DELAY = Number(process.env.BENCH_UPSTREAM_MS ?? 50);
const template = JSON.parse(
  readFileSync(new URL('../assets/market/quote-AAPL.json', import.meta.url), 'utf8'),
).response.bodyJson.quoteResponse.result[0];
const calls = { quote: 0, chart: 0, other: 0 };

function quote(symbol) {
  return {
    ...template,
    symbol,
    marketState: 'CLOSED',
    regularMarketTime: Math.floor(Date.now() / 1000) - 60,
  };
}

function chart(symbol, from) {
  const timestamp = [];
  const quote = { open: [], high: [], low: [], close: [], volume: [] };
  let price = 100;
  const now = Date.now();
  for (let t = Math.max(from, now / 1000 - 20 * 365 * 86_400); t < now / 1000; t += 86_400) {
    const day = new Date(t * 1000).getUTCDay();
    if (day === 0 || day === 6) continue;
    const open = price;
    price = Math.max(1, price * (1 + (Math.random() - 0.5) * 0.04));
    timestamp.push(Math.floor(t / 86_400) * 86_400 + 14 * 3600);
    quote.open.push(open);
    quote.high.push(Math.max(open, price) * 1.005);
    quote.low.push(Math.min(open, price) * 0.995);
    quote.close.push(price);
    quote.volume.push(1_000_000);
  }
  const meta = { ...quote, symbol, currency: 'USD', priceHint: 2, gmtoffset: -18000, exchangeName: 'NMS' };
  return { chart: { result: [{ meta, timestamp, indicators: { quote: [quote] } }], error: null } };
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const send = (status, body, headers = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  if (url.pathname === '/calls') return send(200, calls);
  if (url.pathname.startsWith('/quote/')) return send(200, {}, { 'set-cookie': 'A3=bench; Path=/' });
  if (url.pathname === '/v1/test/getcrumb')
    return res.writeHead(200, { 'content-type': 'text/plain' }).end('benchcrumb');
  setTimeout(() => {
    if (url.pathname === '/v7/finance/quote') {
      calls.quote += 1;
      const symbols = (url.searchParams.get('symbols') ?? '').split(',').filter(Boolean);
      return send(200, { quoteResponse: { result: symbols.map(quote), error: null } });
    }
    const charted = /^\/v8\/finance\/chart\/(.+)$/.exec(url.pathname);
    if (charted) {
      calls.chart += 1;
      return send(200, chart(decodeURIComponent(charted[1]), Number(url.searchParams.get('period1') ?? 0)));
    }
    calls.other += 1;
    send(404, {
      finance: { result: null, error: { code: 'Not Found', description: 'not in the benchmark' } },
    });
  }, DELAY);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
