// An open-loop load: calls sent at a steady rate whatever the answers do, over at most `connections` kept-alive
// sockets (a call due while every socket is busy waits for one), each call's latency measured from the moment it
// was due. Unlike a closed loop, a slow answer does not slow the sending, so the latency below saturation is what
// a caller at that rate would see. (autocannon's rate option sends each second's calls as a burst at the start
// of the second, which measures a saturated server again.)
import http from 'node:http';
import { percentile } from './stats.js';

const TICK_MS = 1;

/**
 * Sends GET `url` with `headers` at `rate` calls a second for `seconds`; resolves with the calls answered, their
 * rate, the non-2xx count and latency percentiles in milliseconds.
 */
export function paced({ url, headers = {}, rate, seconds, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  return new Promise((resolve) => {
    let pending = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const at = (q) => percentile(latencies, q) ?? 0;
      resolve({
        calls: latencies.length,
        requestsPerSecond: latencies.length / ((performance.now() - start) / 1000),
        non2xx,
        errors,
        p50: at(0.5),
        p99: at(0.99),
        max: latencies.at(-1) ?? 0,
      });
    };
    const send = (due) => {
      pending += 1;
      const request = http.get(url, { agent, headers }, (response) => {
        if (response.statusCode < 200 || response.statusCode > 299) non2xx += 1;
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - due);
          pending -= 1;
          if (sent === total && pending === 0) finish();
        });
      });
      request.on('error', () => {
        errors += 1;
        pending -= 1;
        if (sent === total && pending === 0) finish();
      });
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      for (; sent < due; sent += 1) send(start + (sent / rate) * 1000);
      if (sent < total) setTimeout(tick, TICK_MS);
    };
    tick();
  });
}
