// The server's settings as every part of it reads them; start/loadConfig.ts reads them from the environment.
import type { BackupSchedule } from './backup/backup.ts';
import type { LogFormat } from './http/requestLog.ts';
import type { WebhookReceivers } from '../contract/webhooks.ts';

/** Argon2id cost. The defaults are OWASP's minimum for argon2id (m = 19 MiB, t = 2, p = 1). */
export interface PasswordHashingConfig {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  /** How many hashes may run at once, so a burst of logins cannot exhaust memory. */
  maxConcurrent: number;
}

export interface ServerConfig {
  /** production: no demo users are seeded and secrets must come from the environment or the data folder. */
  production: boolean;
  port: number;
  host: string;
  /** Where PGlite keeps its files, the generated secret and uploaded files. null: in memory (tests). */
  dataDir: string | null;
  databaseUrl: string | null;
  /** PostgreSQL schema to work in (tests give each file its own). */
  databaseSchema: string | null;
  /** The most PostgreSQL connections this instance opens (DATABASE_POOL_SIZE); N instances open up to N times it. */
  databasePoolSize: number;
  jwtSecret: Uint8Array;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  resetLinkSeconds: number;
  /** How long the verify link an administrator's new user is sent stays usable. */
  verifyLinkSeconds: number;
  uploadUrlSeconds: number;
  uploadMaxBytes: number;
  bodyLimitBytes: number;
  passwordHashing: PasswordHashingConfig;
  /** Origin used in links sent by e-mail and in upload URLs when the request does not say (behind a proxy). */
  publicUrl: string | null;
  logLevel: string;
  /** LOG_FORMAT: `json` lines (the default in production) or `pretty`, one readable line per request (elsewhere). */
  logFormat: LogFormat;
  /** The bearer token a metrics scraper sends to `GET /metrics` (METRICS_TOKEN); null: loopback only, and not in production. */
  metricsToken: string | null;
  /** Serve the console's source maps (SERVE_SOURCE_MAPS=true); they are built, but not served unless asked for. */
  serveSourceMaps: boolean;
  /** How long, after the drain, a stopping server waits for requests and the import in flight before it exits regardless. */
  stopGraceSeconds: number;
  /**
   * How long a stopping server keeps serving while `/readyz` answers 503, before it closes its port: time for a load
   * balancer's health checks to take it out, so no request is sent to a port about to close.
   */
  stopDrainSeconds: number;
  /** How often an instance takes up accepted uploads that no instance is processing (one left by a stopped instance). */
  uploadRetrySeconds: number;
  /**
   * How long an import may leave the database waiting mid-transaction (a frozen or unreachable instance) before
   * PostgreSQL ends it, rolls it back and frees its upload for another instance.
   */
  uploadLeaseSeconds: number;
  /** Which proxies' X-Forwarded-For gives the client's address (login throttling per client); false: none. */
  trustProxy: TrustProxy;
  /** An S3-compatible bucket for uploaded files (they reach it through the server, in parts); null: the data folder. */
  s3: S3Config | null;
  mail: MailConfig;
  webhooks: WebhookConfig;
  /** How long a deleted record stays in its resource's trash before it is deleted for good; 0: kept until deleted by hand. */
  trashRetentionDays: number;
  reportExport: ReportExportConfig;
  subscriptions: SubscriptionConfig;
  /** Scheduled backups of the embedded database (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP). */
  backup: BackupSchedule;
}

/** The schedule of a job that sends an outbox and retries what failed with a doubling wait. */
export interface RetrySchedule {
  /** How often an instance looks for what is due, and how long its claim on one lasts while it sends it. */
  pollMilliseconds: number;
  claimMilliseconds: number;
  /** The wait before the second attempt, doubled after each failure up to `maxRetryMilliseconds`. */
  firstRetryMilliseconds: number;
  maxRetryMilliseconds: number;
  /** What is still not delivered by then is marked failed. */
  giveUpAfterMilliseconds: number;
}

/** Webhook deliveries (docs/api.md, "Webhooks"). */
export interface WebhookConfig extends RetrySchedule {
  /**
   * WEBHOOK_RECEIVERS: which addresses receivers may have. `public` (production's default) refuses loopback, private,
   * link-local and other special addresses, so a webhook cannot reach the server's own network; `loopback` (the
   * default elsewhere) allows this machine too; `private` allows private networks as well. Link-local addresses
   * (cloud metadata services) are refused always.
   */
  receivers: WebhookReceivers;
  /** Delivered and failed deliveries are kept in the log this long. */
  keptDays: number;
}

/** How subscriptions move with time (server/modules/subscribers/subscriptionClock.ts). */
export interface SubscriptionConfig {
  /** A paid subscription whose cover ends within this many days is expiring, and its subscriber's people are told. */
  expiringDays: number;
  /** How long a trial lasts. */
  trialDays: number;
}

/** The uploaded-data report's exports (server/modules/reports/reportExports.ts). */
export interface ReportExportConfig {
  /** Records read by one keyset query of an export. */
  batchRows: number;
  /** Records in one stored part file of a background export. */
  partRows: number;
  /** How long a finished background export's file is kept for its requester to download. */
  keptHours: number;
}

export interface MailConfig extends RetrySchedule {
  /**
   * The mail server the outbox is delivered to (`smtp://user:pass@host:587`, `smtps://...:465`); null: not sent (in
   * development each message is printed on the server console and listed in the development mailbox instead).
   */
  smtpUrl: string | null;
  /** The sender of every message (`"Trade Data console" <no-reply@example.com>`). */
  from: string;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** Another S3-compatible service than AWS (MinIO, Ceph, ...); null: AWS S3 of `region`. */
  endpoint: string | null;
  /** Both or neither; neither: the AWS SDK's default credential chain (instance role, profile, ...). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (most self-hosted services). */
  forcePathStyle: boolean;
}

/** Which peers' X-Forwarded-For Fastify believes: none, any (true), or the proxies' addresses and CIDR ranges. */
export type TrustProxy = boolean | string[];

/** The delivery schedule (docs/api.md, "E-mail"); tests shorten it. */
export const DEFAULT_MAIL_SCHEDULE = {
  pollMilliseconds: 2_000,
  claimMilliseconds: 5 * 60_000,
  firstRetryMilliseconds: 30_000,
  maxRetryMilliseconds: 15 * 60_000,
  giveUpAfterMilliseconds: 24 * 60 * 60_000,
} as const satisfies Partial<MailConfig>;

/** The delivery schedule of webhooks: a receiver that is down is tried again for three days. */
export const DEFAULT_WEBHOOK_SCHEDULE = {
  pollMilliseconds: 2_000,
  claimMilliseconds: 60_000,
  firstRetryMilliseconds: 30_000,
  maxRetryMilliseconds: 60 * 60_000,
  giveUpAfterMilliseconds: 3 * 24 * 60 * 60_000,
} as const satisfies RetrySchedule;

export const DEFAULT_PASSWORD_HASHING: PasswordHashingConfig = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  maxConcurrent: 4,
};
