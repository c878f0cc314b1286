import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_LIMITS, type WebhookReceivers } from '../../../contract/webhooks.ts';
import { RefusedReceiver, receiverUrl, refusedAddress } from './receivers.ts';

/** What a receiver made of one delivery. */
export interface ReceiverAnswer {
  /** Its HTTP status; null: no answer (refused, unreachable, timed out). */
  status: number | null;
  /** The start of its answer's body. */
  body: string | null;
  /** Why it does not count as taken; null: taken (a 2xx). */
  error: string | null;
  /** A failure no retry mends (the address is not allowed): the delivery fails at once. */
  permanent: boolean;
  durationMs: number;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Resolves as Node would, but refuses the connection when any address the name gives is not allowed. */
function guardedLookup(receivers: WebhookReceivers) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.map((entry) => refusedAddress(entry.address, receivers)).find(Boolean);
      if (refused) return callback(new RefusedReceiver(`This server does not send webhooks there: ${refused}.`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * POSTs `body` to the receiver with `headers`: its answer within WEBHOOK_LIMITS.timeoutSeconds, redirects not followed
 * (a 3xx is a failure), only to addresses WEBHOOK_RECEIVERS allows, judged on the address connected to.
 */
export async function postToReceiver(
  urlText: string,
  headers: Record<string, string>,
  body: string,
  receivers: WebhookReceivers,
): Promise<ReceiverAnswer> {
  const started = performance.now();
  const answer = (status: number | null, text: string | null, error: string | null, permanent = false) => ({
    status,
    body: text,
    error,
    permanent,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = receiverUrl(urlText);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const refused = isIP(host) ? refusedAddress(host, receivers) : null;
    if (refused) throw new RefusedReceiver(`This server does not send webhooks there: ${refused}.`);
  } catch (error) {
    return answer(null, null, (error as Error).message, true);
  }
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: guardedLookup(receivers),
      signal: AbortSignal.timeout(WEBHOOK_LIMITS.timeoutSeconds * 1000),
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < WEBHOOK_LIMITS.responseExcerpt) text += chunk;
        if (text.length >= WEBHOOK_LIMITS.responseExcerpt) response.destroy();
      });
      const settle = () => {
        const status = response.statusCode ?? 0;
        const excerpt = text.slice(0, WEBHOOK_LIMITS.responseExcerpt);
        if (status >= 200 && status < 300) resolve(answer(status, excerpt, null));
        else if (status >= 300 && status < 400)
          resolve(answer(status, excerpt, `Answered ${status}: redirects are not followed; give the final address.`));
        else resolve(answer(status, excerpt, `Answered ${status}.`));
      };
      response.on('end', settle);
      response.on('close', settle);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof RefusedReceiver) return resolve(answer(null, null, error.message, true));
      const reason =
        error.name === 'TimeoutError' || error.name === 'AbortError'
          ? `No answer within ${WEBHOOK_LIMITS.timeoutSeconds} seconds.`
          : `Could not reach the receiver: ${error.code ?? error.message}.`;
      resolve(answer(null, null, reason));
    });
    request.end(body);
  });
}
