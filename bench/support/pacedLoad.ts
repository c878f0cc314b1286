/**
 * Requests sent at a steady pace, as people send them, whatever the answers do: an open load. autocannon's own rate
 * sends each second's share of every connection at the start of the second, a burst every second, so it is not used.
 */
import { Agent, request } from 'node:http';
import type { LoadFigures, RotatingLoad } from './load.ts';

interface PacedLoad extends RotatingLoad {
  /** Requests a second, evenly spaced; a request that finds every connection busy waits for one, and that counts. */
  rate: number;
}

/**
 * `rate` requests a second for `seconds`, each path in turn, over at most `connections` kept-alive connections. A
 * request is timed from when it was due, not from when a connection took it (no coordinated omission); `rps` is the
 * answers a second, below `rate` when the server falls behind.
 */
export async function pacedLoad(
  { origin, paths, headers, connections, rate }: PacedLoad,
  seconds: number,
): Promise<LoadFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const send = (path: string, due: number) =>
    new Promise<void>((resolve) => {
      const call = request(new URL(path, origin), { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode && response.statusCode >= 200 && response.statusCode < 300)
            latencies.push(performance.now() - due);
          else errors += 1;
          resolve();
        });
      });
      call.setTimeout(10_000, () => call.destroy(new Error('timed out')));
      call.on('error', () => {
        errors += 1;
        resolve();
      });
      call.end();
    });
  const started = performance.now();
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  const sent: Array<Promise<void>> = [];
  while (sent.length < total) {
    const due = started + sent.length * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 1));
    else if (wait > 0) await new Promise((resolve) => setImmediate(resolve));
    else sent.push(send(paths[sent.length % paths.length]!, due));
  }
  await Promise.all(sent);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0) * 10) / 10;
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors };
}
