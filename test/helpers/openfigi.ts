// A local stand-in for OpenFIGI's mapping API that replays the recorded real answers in test/fixtures/real/openfigi
// (vcrpy cassettes: each request's jobs and the gzipped answer). A job is answered with the recorded rows of its
// ticker, narrowed to its exchCode as OpenFIGI narrows them; a ticker with no recorded rows answers OpenFIGI's
// warning. It counts what it is asked, and can be told to fail.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { real } from './real-data.js';

export const OPENFIGI_DIR = real('openfigi');

export type FigiRow = Record<string, string | null>;
type Job = { idType: string; idValue: string; exchCode?: string };

/** A cassette's jobs and the answer OpenFIGI gave them, read from its YAML. */
export function cassette(file: string): {
  jobs: Job[];
  answer: ({ data: FigiRow[] } | { warning: string })[];
} {
  const text = readFileSync(file, 'utf8');
  const request = /body: '([\s\S]*?)'\n/.exec(text)?.[1];
  const binary = /string: !!binary \|\n((?:[ \t]+\S+\n)+)/.exec(text)?.[1];
  if (!request || !binary) throw new Error(`${file}: not a recorded mapping`);
  const jobs = JSON.parse(request.replace(/\n\s+/g, ' ')) as Job[];
  const answer = JSON.parse(gunzipSync(Buffer.from(binary.replace(/\s+/g, ''), 'base64')).toString('utf8'));
  return { jobs, answer };
}

export interface FigiCall {
  jobs: Job[];
  apiKey: string | null;
}

export class MockOpenFigi {
  readonly calls: FigiCall[] = [];
  /** Answers with this status while set (a 429 asks for `retryAfter` seconds). */
  failWith: number | null = null;
  retryAfter = '60';
  private readonly rows = new Map<string, FigiRow[]>();
  private server: Server | null = null;
  url = '';

  constructor() {
    for (const name of readdirSync(OPENFIGI_DIR).filter((f) => f.endsWith('.yaml'))) {
      const { jobs, answer } = cassette(path.join(OPENFIGI_DIR, name));
      jobs.forEach((job, i) => {
        const entry = answer[i];
        if (entry && 'data' in entry) this.rows.set(job.idValue, entry.data);
      });
    }
  }

  env(): Record<string, string> {
    return { QUARRY_OPENFIGI_URL: this.url };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const send = (status: number, body: unknown) => {
          const wait = status === 429 ? { 'retry-after': this.retryAfter } : {};
          res.writeHead(status, { 'content-type': 'application/json', ...wait });
          res.end(JSON.stringify(body));
        };
        if (req.method !== 'POST' || req.url !== '/v3/mapping') return send(404, { error: 'no such path' });
        const jobs = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Job[];
        const key = req.headers['x-openfigi-apikey'];
        this.calls.push({ jobs, apiKey: typeof key === 'string' ? key : null });
        if (this.failWith) return send(this.failWith, { error: 'failing as told' });
        if (jobs.length > (key ? 100 : 10)) return send(413, { error: 'Too many mapping jobs per request.' });
        send(
          200,
          jobs.map((job) => {
            const data = (this.rows.get(job.idValue) ?? []).filter(
              (row) => !job.exchCode || row.exchCode === job.exchCode,
            );
            return data.length ? { data } : { warning: 'No identifier found.' };
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
