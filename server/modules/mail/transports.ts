import nodemailer from 'nodemailer';
import { linksIn, type ClaimedMail } from './outbox.ts';

/** Where claimed messages go: a mail server, or (development without SMTP_URL) the server console. */
export interface MailTransport {
  readonly kind: 'smtp' | 'console';
  /** Resolves once the message was accepted; rejects with the reason otherwise. */
  send(mail: ClaimedMail): Promise<void>;
  close(): void;
}

/**
 * Bounds on every wait of an SMTP attempt, so an attempt always ends well within the claim on its message (5 min):
 * a hung mail server never lets another instance take the message while this one may still send it.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Delivery through SMTP_URL with nodemailer, one connection per message (low volume: links, not newsletters). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS }, { from });
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        messageId: `<${mail.messageKey}@${domain}>`,
      });
    },
    close: () => transporter.close(),
  };
}

/** Development without SMTP_URL: each message's subject and links, printed where the server's output goes. */
export function consoleTransport(print: (line: string) => void): MailTransport {
  return {
    kind: 'console',
    async send(mail) {
      const links = linksIn(mail.text);
      print(
        `E-mail to ${mail.to} (not sent: no SMTP_URL): "${mail.subject}"${links.map((link) => `\n  ${link}`).join('')}`,
      );
    },
    close: () => undefined,
  };
}

/**
 * Whether retrying would be refused again: the mail server rejected this message or recipient for good (a 5xx reply).
 * A refused login is not: it is the server's configuration, and once fixed the waiting messages go out.
 */
export function isPermanentFailure(error: unknown): boolean {
  const failure = error as { permanent?: boolean; code?: string };
  return failure.permanent === true && failure.code !== 'EAUTH' && failure.code !== 'ENOAUTH';
}

/** The reason recorded with an attempt that failed: the server's reply when there was one. */
export function failureReason(error: unknown): string {
  const failure = error as { message?: string; response?: string; code?: string };
  const text = failure.response ?? failure.message ?? String(error);
  return (failure.code && !text.includes(failure.code) ? `${failure.code}: ${text}` : text).slice(0, 1000);
}
