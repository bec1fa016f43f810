import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same as HTML (sent as multipart/alternative with the text); most messages are text only. */
  html?: string;
  /** Extra headers (List-Unsubscribe); Auto-Submitted is always set. */
  headers?: Readonly<Record<string, string>>;
}

/** Where a message went: handed to the SMTP server, or written as an .eml file for someone to send. */
export type Delivery =
  | { via: 'smtp'; to: string; server: string; messageId: string }
  | { via: 'outbox'; to: string; path: string };

export interface Mailer {
  send(message: MailMessage): Promise<Delivery>;
  close(): void;
}

export type MailConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'OUTBOX_DIR'>;

/** Plain text, quoted-printable: readable as a raw .eml, safe for German umlauts on any relay. */
const TEXT_ONLY = { textEncoding: 'quoted-printable', headers: { 'Auto-Submitted': 'auto-generated' } } as const;

/**
 * Short timeouts: an unreachable server should fail the command in seconds, not after nodemailer's
 * default minutes (an approval that cannot send its key is taken back only once the send fails).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 };

function mailOf(from: string, message: MailMessage) {
  return { from, ...message, ...TEXT_ONLY, headers: { ...message.headers, ...TEXT_ONLY.headers } };
}

/** SMTP through SMTP_URL when it is set, otherwise .eml files in OUTBOX_DIR. */
export function createMailer(config: MailConfig): Mailer {
  return config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(config.OUTBOX_DIR, config.MAIL_FROM);
}

/** host:port of an SMTP URL, never its user name or password. */
function serverOf(url: string): string {
  const { protocol, hostname, port } = new URL(url);
  return `${hostname}:${port || (protocol === 'smtps:' ? '465' : '587')}`;
}

function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    async send(message) {
      const info = await transport.sendMail(mailOf(from, message));
      return { via: 'smtp', to: message.to, server: serverOf(url), messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/** A file name that sorts by time and says whom the message is for. */
function emlName(to: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const recipient = to.replace(/[^A-Za-z0-9.@_-]/g, '_').slice(0, 80);
  return `${stamp}-${recipient}-${randomBytes(3).toString('hex')}.eml`;
}

function outboxMailer(dir: string, from: string): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(message) {
      const info = await transport.sendMail(mailOf(from, message));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const path = resolve(join(dir, emlName(message.to, new Date())));
      // The message may carry a key: readable by the owner only, and never overwrite another file.
      await writeFile(path, info.message as Buffer, { mode: 0o600, flag: 'wx' });
      return { via: 'outbox', to: message.to, path };
    },
    close: () => transport.close(),
  };
}

/** One line for the operator: where the message went and what is left to do. */
export function describeDelivery(delivery: Delivery): string {
  return delivery.via === 'smtp'
    ? `emailed to ${delivery.to} through SMTP ${delivery.server} (Message-ID ${delivery.messageId})`
    : `written to ${delivery.path} for ${delivery.to} (no SMTP_URL is set: send that file yourself)`;
}

/**
 * What the operator must know about an .eml file in the outbox that carries a key: it is the key's
 * only readable copy outside the recipient's mailbox. Undefined for SMTP deliveries.
 */
export function outboxKeyWarning(delivery: Delivery): string | undefined {
  return delivery.via === 'outbox'
    ? `${delivery.path} holds the live key in plain text: delete the file once it is sent.`
    : undefined;
}
