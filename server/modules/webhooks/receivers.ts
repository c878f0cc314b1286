/**
 * Where webhooks may send (docs/api.md, "Webhooks"): a receiver's URL and every address its host resolves to are
 * judged against WEBHOOK_RECEIVERS, when it is registered and again at each delivery's connection (the address the
 * connection uses is the one judged, so a name that resolves elsewhere later gains nothing).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_LIMITS, type WebhookReceivers } from '../../../contract/webhooks.ts';

function blockList(ranges: ReadonlyArray<readonly [string, number]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, network.includes(':') ? 'ipv6' : 'ipv4');
  return list;
}

const LOOPBACK = blockList([
  ['127.0.0.0', 8],
  ['::1', 128],
]);
const PRIVATE = blockList([
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['fc00::', 7],
]);
/** Never a receiver: link-local (cloud metadata services), unspecified, multicast, reserved and documentation ranges. */
const NEVER = blockList([
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
  ['::', 128],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
]);

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it is. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Why `address` may not be a receiver under `receivers`; null when it may. */
export function refusedAddress(address: string, receivers: WebhookReceivers): string | null {
  const plain = plainAddress(address);
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  if (NEVER.check(plain, family)) return `${address} is a special-purpose address, never a receiver`;
  if (LOOPBACK.check(plain, family)) return receivers === 'public' ? `${address} is this machine (loopback)` : null;
  if (PRIVATE.check(plain, family)) return receivers === 'private' ? null : `${address} is on a private network`;
  return null;
}

/** Thrown when a receiver may not be sent to; its message says why, for the person who registered it. */
export class RefusedReceiver extends Error {}

/** The URL as given, or why it cannot be a receiver's (its syntax alone: see `checkReceiverHost` for its addresses). */
export function receiverUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedReceiver('Give a whole web address, starting with https:// (or http://).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new RefusedReceiver('Give a web address starting with https:// (or http://).');
  if (url.username || url.password)
    throw new RefusedReceiver('Leave the user name and password out of the address: deliveries are signed instead.');
  if (text.length > WEBHOOK_LIMITS.urlLength)
    throw new RefusedReceiver(`The address may be at most ${WEBHOOK_LIMITS.urlLength} characters.`);
  return url;
}

/** The host's addresses, each judged; refused when any one is not allowed or the name resolves to none. */
export async function checkReceiverHost(url: URL, receivers: WebhookReceivers): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true, verbatim: true }).then(
        (found) => found.map((entry) => entry.address),
        () => {
          throw new RefusedReceiver(`The host ${host} could not be found.`);
        },
      );
  for (const address of addresses) {
    const refused = refusedAddress(address, receivers);
    if (refused) throw new RefusedReceiver(`This server does not send webhooks there: ${refused}.`);
  }
}
