// The two mailers: SMTP through nodemailer, and an outbox folder of .eml files for a machine without one.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Mail, Mailer } from '../kernel/mailer.js';

/** nodemailer is loaded only where SMTP_URL names a server. */
export async function createMailer(smtpUrl: string | null, from: string, dataDir: string): Promise<Mailer> {
  if (!smtpUrl) return new OutboxMailer(path.join(dataDir, 'outbox'), from);
  const { default: nodemailer } = await import('nodemailer');
  return new SmtpMailer(nodemailer.createTransport(smtpUrl), smtpUrl, from);
}

class SmtpMailer implements Mailer {
  readonly describe: string;
  constructor(
    private readonly transport: Transporter,
    url: string,
    private readonly from: string,
  ) {
    const parsed = new URL(url);
    this.describe = `SMTP ${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)}`;
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** One RFC 5322 message a file, named so that a listing sorts oldest first. */
export class OutboxMailer implements Mailer {
  readonly describe: string;

  constructor(
    readonly folder: string,
    private readonly from: string,
  ) {
    this.describe = `outbox folder ${folder}`;
  }

  async send(mail: Mail): Promise<void> {
    mkdirSync(this.folder, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = `${stamp}-${randomBytes(4).toString('hex')}.eml`;
    const message = [
      `From: ${this.from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Date: ${new Date().toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      mail.text,
      '',
    ].join('\r\n');
    writeFileSync(path.join(this.folder, name), message, { mode: 0o600 });
  }

  async close(): Promise<void> {}
}
