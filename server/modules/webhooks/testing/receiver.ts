import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a receiver took. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver on 127.0.0.1 for the webhook tests: it keeps every request and answers 200, or for an event
 * given to `answerNext` the statuses given, in turn: a test makes it "down" for as many attempts as it likes.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, number[]>();
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body });
        const event = String(request.headers['x-webhook-event']);
        response.writeHead(this.answers.get(event)?.shift() ?? 200, { 'content-type': 'text/plain' }).end('taken');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The next attempts of `event` are answered with these statuses. */
  answerNext(event: string, ...statuses: number[]): void {
    this.answers.set(event, [...(this.answers.get(event) ?? []), ...statuses]);
  }

  /** The requests whose event is `event`. */
  of(event: string): Received[] {
    return this.received.filter((request) => request.headers['x-webhook-event'] === event);
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Whether a request carries a valid signature under `secret`, as a receiver checks it (docs/api.md, "Webhooks"). */
export function signedWith(received: Received, secret: string): boolean {
  const timestamp = String(received.headers['x-webhook-timestamp'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`;
  const given = String(received.headers['x-signature'] ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
