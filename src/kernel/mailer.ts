// Mail the service sends (the console's confirmation and reset links): through SMTP when SMTP_URL is set,
// otherwise written to an outbox folder under the data directory. Chosen once, in runtime/deps.ts.
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Where mail goes, for the start-up line: "SMTP smtp.example.com:587" or the outbox folder. */
  readonly describe: string;
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}
