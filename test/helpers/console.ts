// A browser-like client of the console over app.inject: keeps its cookies, reads the form token from the
// page it got, posts forms. Also: the newest mail in the outbox, and signed Stripe events.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';

export interface Answer {
  status: number;
  body: string;
  location: string | undefined;
  headers: Record<string, unknown>;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  /** The form token of the last page read. */
  csrf = '';

  constructor(
    private readonly app: FastifyInstance,
    readonly address = '127.0.0.1',
  ) {}

  async get(url: string): Promise<Answer> {
    return this.send('GET', url);
  }

  /** Posts a form with the token of the last page read, unless `fields` sets its own `_csrf`. */
  async post(url: string, fields: Record<string, string> = {}): Promise<Answer> {
    return this.send('POST', url, new URLSearchParams({ _csrf: this.csrf, ...fields }).toString());
  }

  private async send(method: 'GET' | 'POST', url: string, payload?: string): Promise<Answer> {
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    const setCookies = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookies) ? setCookies : setCookies ? [setCookies] : []) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, at);
      const value = (pair ?? '').slice(at + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (token) this.csrf = token;
    return {
      status: response.statusCode,
      body: response.body,
      location: response.headers.location as string | undefined,
      headers: response.headers,
    };
  }

  /** Signs up, follows the mailed link, signs in. */
  async signUpAndIn(dataDir: string, email: string, password: string): Promise<void> {
    await this.get('/console/sign-up');
    const made = await this.post('/console/sign-up', { email, password });
    if (made.status !== 200) throw new Error(`sign-up answered ${made.status}`);
    const link = lastLink(dataDir, email, 'confirm');
    const confirmed = await this.get(link);
    if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
    await this.signIn(email, password);
  }

  async signIn(email: string, password: string): Promise<Answer> {
    await this.get('/console/sign-in');
    const answer = await this.post('/console/sign-in', { email, password });
    if (answer.location === '/console/overview') await this.get('/console/overview');
    return answer;
  }
}

/** Mails to `to` in the outbox, oldest first. */
export function outbox(dataDir: string, to: string): string[] {
  const folder = path.join(dataDir, 'outbox');
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return names
    .map((name) => readFileSync(path.join(folder, name), 'utf8'))
    .filter((mail) => mail.includes(`\r\nTo: ${to}\r\n`));
}

/** The path and query of the newest link of a kind (confirm, reset/new) mailed to `to`. */
export function lastLink(dataDir: string, to: string, kind: 'confirm' | 'reset/new'): string {
  const mail = outbox(dataDir, to).at(-1) ?? '';
  const url = new RegExp(`https?://\\S+/console/${kind}\\?token=\\S+`).exec(mail)?.[0];
  if (!url) throw new Error(`no ${kind} link mailed to ${to}`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A Stripe event body and its Stripe-Signature header, made by the official library's test helper. */
export function signedEvent(secret: string, event: object): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  const stripe = new Stripe('sk_test_unused');
  return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
