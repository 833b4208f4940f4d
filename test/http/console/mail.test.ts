// The console's mail through a real SMTP server (smtp-server, started by the test) when SMTP_URL is set, and
// the cookie flags and the operator's session revocation that depend on configuration.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsCommand } from '../../../src/cli/accounts.js';
import { ConsoleClient, outbox } from '../../helpers/console.js';
import { type TestEnv, testEnv } from '../../helpers/env.js';

describe('mail through SMTP', () => {
  let env: TestEnv;
  let smtp: SMTPServer;
  const received: { from: string; to: string[]; data: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk) => {
          data += chunk;
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    env = await testEnv({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        QUARRY_MAIL_FROM: 'accounts@quarry.example',
        QUARRY_PUBLIC_URL: 'https://console.quarry.example',
      },
    });
  });
  afterAll(async () => {
    await env.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the confirmation link by SMTP, from QUARRY_MAIL_FROM, with links on QUARRY_PUBLIC_URL; nothing in the outbox', async () => {
    const client = new ConsoleClient(env.app, '10.60.0.1');
    await client.get('/console/sign-up');
    await client.post('/console/sign-up', { email: 'smtp-user@example.com', password: 'smtp passphrase 1' });
    expect(env.deps.mailer.describe).toMatch(/^SMTP 127\.0\.0\.1:\d+$/);
    const mail = received.at(-1);
    expect(mail?.from).toBe('accounts@quarry.example');
    expect(mail?.to).toEqual(['smtp-user@example.com']);
    expect(mail?.data).toContain('Subject: Confirm your Quarry account');
    const link = /https:\/\/console\.quarry\.example\/console\/confirm\?token=\S+/.exec(
      quotedPrintable(mail?.data ?? ''),
    )?.[0];
    expect(link).toBeDefined();
    expect(outbox(env.dataDir, 'smtp-user@example.com')).toEqual([]);

    const confirmed = await client.get(new URL(link as string).pathname + new URL(link as string).search);
    expect(confirmed.body).toContain('is confirmed');
  });

  it('with an https QUARRY_PUBLIC_URL the session cookie is Secure', async () => {
    const client = new ConsoleClient(env.app, '10.60.0.2');
    await client.get('/console/sign-up');
    await client.post('/console/sign-up', { email: 'secure@example.com', password: 'smtp passphrase 2' });
    await env.deps.store.db
      .updateTable('accounts')
      .set({ email_confirmed: 1 })
      .where('email', '=', 'secure@example.com')
      .execute();
    const answer = await client.signIn('secure@example.com', 'smtp passphrase 2');
    const cookie = ([] as string[])
      .concat(answer.headers['set-cookie'] as string)
      .find((c) => c.startsWith('quarry_session='));
    expect(cookie).toMatch(/; Secure/);
  });

  it('the operator ends every session of an account with quarry accounts sign-out', async () => {
    const first = new ConsoleClient(env.app, '10.60.0.3');
    await first.get('/console/sign-up');
    await first.post('/console/sign-up', {
      email: 'two-sessions@example.com',
      password: 'smtp passphrase 3',
    });
    const second = new ConsoleClient(env.app, '10.60.0.4');
    await first.signIn('two-sessions@example.com', 'smtp passphrase 3');
    await second.signIn('two-sessions@example.com', 'smtp passphrase 3');
    expect((await second.get('/console/overview')).status).toBe(200);
    const { id } = await env.deps.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'two-sessions@example.com')
      .executeTakeFirstOrThrow();
    expect(await accountsCommand(env.deps, ['sign-out', id])).toEqual({ id, sessionsEnded: 2 });
    expect((await first.get('/console/overview')).location).toBe('/console/sign-in');
    expect((await second.get('/console/overview')).location).toBe('/console/sign-in');
  });
});

/** The body as sent with Content-Transfer-Encoding: quoted-printable, decoded (RFC 2045, 6.7). */
function quotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
