import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { runningJobs, type JobRound } from '../../jobs/periodicJob.ts';
import { unsentMailCounts } from '../mail/outbox.ts';
import { unsentDeliveryCounts } from '../webhooks/deliveries.ts';
import { importsPace, importsRunning } from '../uploads/importProgress.ts';

export const METRICS_PATH = '/metrics';

/** Request durations, in seconds: an API answer is expected in tens of milliseconds, an export or import in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * `GET /metrics` in Prometheus's text format, at the root beside the health probes: requests by route and status with
 * their durations, the process (event-loop lag, memory, CPU, from prom-client's defaults), the database connections,
 * the uploads being imported and their pace, the e-mail and webhook outboxes, and the last round of each background job. Each app
 * has its own registry (tests run several in one process). Who may scrape is the route's `metrics` access rule.
 * Called on the root instance before any route, not registered as a plugin: its timing hook is for every route.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route (its pattern, "unmatched" for a path no route serves) and status, and their durations.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  new Gauge({
    name: 'db_connections',
    help: 'Database connections in use, waited for, and the most there may be (PGlite: one session).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const use = app.db.connectionUse();
      this.set({ state: 'in_use' }, use.inUse);
      this.set({ state: 'waiting' }, use.waiting);
      this.set({ state: 'max' }, use.size);
    },
  });

  new Gauge({
    name: 'trade_uploads_processing',
    help: 'Trade-data uploads being imported now, by any instance.',
    registers: [registry],
    async collect() {
      this.set(await importsRunning(app.db));
    },
  });
  new Gauge({
    name: 'trade_upload_rows_per_second',
    help: 'Rows read per second by the imports running now, summed, each since it started.',
    registers: [registry],
    async collect() {
      this.set(await importsPace(app.db));
    },
  });

  /** An outbox by state, each of the three states set (0 when none is in it). */
  const unsentGauge = (name: string, help: string, unsentCounts: () => Promise<Map<string, number>>) =>
    new Gauge({
      name,
      help,
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const counts = await unsentCounts();
        for (const state of ['pending', 'sending', 'failed']) this.set({ state }, counts.get(state) ?? 0);
      },
    });
  unsentGauge(
    'mail_outbox_messages',
    'E-mail in the outbox by state: pending (to send or to retry), sending, failed (given up).',
    () => unsentMailCounts(app.db),
  );
  unsentGauge(
    'webhook_deliveries',
    'Webhook deliveries by state: pending (to send or to retry), sending, failed (given up; kept in the log).',
    () => unsentDeliveryCounts(app.db),
  );

  const jobGauge = (name: string, help: string, value: (round: JobRound) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['job'] as const,
      registers: [registry],
      collect() {
        for (const job of runningJobs()) if (job.lastRound) this.set({ job: job.name }, value(job.lastRound));
      },
    });
  jobGauge(
    'job_last_round_end_timestamp_seconds',
    'When each background job last ended a round (Unix time).',
    (round) => round.endedAt / 1000,
  );
  jobGauge(
    'job_last_round_success',
    'Whether the last round of each background job succeeded (1) or failed (0).',
    (round) => (round.succeeded ? 1 : 0),
  );
  jobGauge(
    'job_last_round_duration_seconds',
    'How long the last round of each background job took.',
    (round) => round.seconds,
  );

  app.get(METRICS_PATH, {
    config: { access: 'metrics' },
    schema: {
      operationId: 'metrics',
      summary: 'Metrics in the Prometheus text format',
      response: {
        200: {
          description: 'Prometheus text exposition format 0.0.4.',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    },
    handler: async (_request, reply) => {
      const text = await registry.metrics();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    },
  });
}
