import { createServer } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { linksIn } from '../outbox.ts';

/** A message as a real mail server received it, parsed from what went over the wire. */
export interface DeliveredMail {
  /** The envelope's recipients. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  messageId: string;
  links: string[];
}

export interface SmtpTestServer {
  /** SMTP_URL for the server under test. */
  url: string;
  port: number;
  /** Every message received so far, in order. */
  readonly delivered: readonly DeliveredMail[];
  /** The first message (received or still to come) that `matches`, or an error after `timeoutMs`. */
  waitFor(matches: (mail: DeliveredMail) => boolean, timeoutMs?: number): Promise<DeliveredMail>;
  close(): Promise<void>;
}

interface SmtpTestServerOptions {
  /** A port to listen on (a mail server coming back where it was); absent: a free one. */
  port?: number;
  /** Recipients refused for good, as a real server refuses an unknown mailbox (550). */
  refuses?: (address: string) => boolean;
}

/**
 * A real SMTP server in the test process (smtp-server, from the nodemailer project), plain SMTP on loopback without
 * authentication, parsing each received message with mailparser: tests deliver through it exactly as production
 * delivers through its mail server, and read the links out of what arrived.
 */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const delivered: DeliveredMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuses?.(address.address))
        return callback(
          Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 }),
        );
      return callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const text = parsed.text ?? '';
          delivered.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : null,
            messageId: parsed.messageId ?? '',
            links: linksIn(text),
          });
          for (const wake of waiting) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    delivered,
    waitFor(matches, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = delivered.find(matches);
          if (!found) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `no matching e-mail within ${timeoutMs} ms; received: ${JSON.stringify(delivered.map((mail) => ({ to: mail.to, subject: mail.subject })))}`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nobody listens on now: where a mail server that is down would be. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
