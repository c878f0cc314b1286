import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import type { BackupSchedule } from './backup/backup.ts';
import type { LogFormat } from './http/requestLog.ts';

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
  /** How long a deleted record stays in its resource's trash before it is deleted for good; 0: kept until deleted by hand. */
  trashRetentionDays: number;
  reportExport: ReportExportConfig;
  subscriptions: SubscriptionConfig;
  /** Scheduled backups of the embedded database (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP). */
  backup: BackupSchedule;
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

export interface MailConfig {
  /**
   * The mail server the outbox is delivered to (`smtp://user:pass@host:587`, `smtps://...:465`); null: not sent (in
   * development each message is printed on the server console and listed in the development mailbox instead).
   */
  smtpUrl: string | null;
  /** The sender of every message (`"Trade Data console" <no-reply@example.com>`). */
  from: string;
  /** How often an instance looks for messages due, and how long its claim on a message lasts while it sends it. */
  pollMilliseconds: number;
  claimMilliseconds: number;
  /** The wait before the second attempt, doubled after each failure up to `maxRetryMilliseconds`. */
  firstRetryMilliseconds: number;
  maxRetryMilliseconds: number;
  /** A message not delivered by then is marked failed (its link would have long expired). */
  giveUpAfterMilliseconds: number;
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

export const DEFAULT_PASSWORD_HASHING: PasswordHashingConfig = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  maxConcurrent: 4,
};

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

/** Where the server listens (PORT, HOST): read before the rest, so the port is taken before any start-up work. */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } {
  return { port: integer(env, 'PORT', 8080), host: env.HOST ?? '127.0.0.1' };
}

/**
 * The data folder when the server keeps something in it (the PGlite database, uploaded files, the generated JWT
 * secret) and so must hold its lock; null on PostgreSQL with a bucket and JWT_SECRET, where it keeps nothing there.
 */
export function dataFolderOfServer(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.DATABASE_URL && env.S3_BUCKET && env.JWT_SECRET ? null : dataFolder(env);
}

export function dataFolder(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? '.data');
}

/** Reads the configuration from the environment; `overrides` win (tests). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const production = env.NODE_ENV === 'production';
  const dataDir = overrides.dataDir !== undefined ? overrides.dataDir : dataFolder(env);
  const config: ServerConfig = {
    production,
    ...listenAddress(env),
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    databaseSchema: env.DATABASE_SCHEMA || null,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20),
    jwtSecret: new Uint8Array(),
    accessTokenSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 15 * MINUTE),
    refreshTokenSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 7 * DAY),
    resetLinkSeconds: integer(env, 'RESET_LINK_TTL_SECONDS', 30 * MINUTE),
    verifyLinkSeconds: integer(env, 'VERIFY_LINK_TTL_SECONDS', 7 * DAY),
    // The link serves every chunk of a file, resumed after breaks: a day covers a 5 GB file on a slow line.
    uploadUrlSeconds: integer(env, 'UPLOAD_URL_TTL_SECONDS', DAY),
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 5 * 1000 ** 3),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 256 * 1024),
    passwordHashing: DEFAULT_PASSWORD_HASHING,
    publicUrl: env.PUBLIC_URL || null,
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: logFormat(env.LOG_FORMAT, production),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    serveSourceMaps: flag(env.SERVE_SOURCE_MAPS, 'SERVE_SOURCE_MAPS'),
    stopGraceSeconds: integer(env, 'STOP_GRACE_SECONDS', 30),
    stopDrainSeconds: integer(env, 'STOP_DRAIN_SECONDS', 0, 0),
    uploadRetrySeconds: integer(env, 'UPLOAD_RETRY_SECONDS', 30),
    uploadLeaseSeconds: integer(env, 'UPLOAD_LEASE_SECONDS', 60),
    trustProxy: trustProxy(env.TRUST_PROXY),
    s3: s3Config(env),
    mail: mailConfig(env, production),
    trashRetentionDays: integer(env, 'TRASH_RETENTION_DAYS', 30, 0),
    subscriptions: {
      expiringDays: integer(env, 'SUBSCRIPTION_EXPIRING_DAYS', 30, 1),
      trialDays: integer(env, 'SUBSCRIPTION_TRIAL_DAYS', 14, 1),
    },
    backup: {
      folder: env.BACKUP_DIR ? resolve(env.BACKUP_DIR) : null,
      everyHours: integer(env, 'BACKUP_EVERY_HOURS', 24, 1),
      keep: integer(env, 'BACKUP_KEEP', 7, 1),
    },
    reportExport: { batchRows: 2_000, partRows: 100_000, keptHours: integer(env, 'REPORT_EXPORT_KEPT_HOURS', 24, 1) },
    ...overrides,
  };
  if (config.jwtSecret.length === 0) config.jwtSecret = jwtSecret(env, config.dataDir);
  return config;
}

function logFormat(value: string | undefined, production: boolean): LogFormat {
  if (value === undefined || value === '') return production ? 'json' : 'pretty';
  if (value === 'json' || value === 'pretty') return value;
  throw new Error(`LOG_FORMAT must be json or pretty, not ${JSON.stringify(value)}.`);
}

function metricsToken(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters.');
  return value;
}

/** JWT_SECRET from the environment, else a random one generated once and kept in the data folder. */
function jwtSecret(env: NodeJS.ProcessEnv, dataDir: string | null): Uint8Array {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters.');
    return new TextEncoder().encode(env.JWT_SECRET);
  }
  if (!dataDir) return randomBytes(32);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) createSecretFile(file);
  chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32)
    throw new Error(
      `${file} holds no valid secret (under 32 characters): remove it to generate a new one (signed-in users sign in again), or set JWT_SECRET.`,
    );
  return new TextEncoder().encode(secret);
}

/**
 * Written whole to a file of its own, then linked to its name, which fails if another process (create-admin on
 * PostgreSQL takes no lock) got there first: the secret file is never seen empty or half written, even after a kill.
 */
function createSecretFile(file: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const descriptor = openSync(temporary, 'w', 0o600);
  try {
    writeSync(descriptor, randomBytes(48).toString('base64url'));
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

function s3Config(env: NodeJS.ProcessEnv): S3Config | null {
  if (!env.S3_BUCKET) return null;
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if ((accessKeyId === null) !== (secretAccessKey === null))
    throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither.');
  if (env.S3_ENDPOINT && !/^https?:\/\/[^/]/.test(env.S3_ENDPOINT))
    throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${env.S3_ENDPOINT}".`);
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    endpoint: env.S3_ENDPOINT || null,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, 'S3_FORCE_PATH_STYLE'),
  };
}

/**
 * TRUST_PROXY: unset or `false`; a comma-separated list of the proxies' addresses and CIDR ranges; or `true`, any
 * peer, only where nothing but the proxy can reach the server. (A count of proxies is not offered: Fastify would
 * trust no one with it, as a count cannot tell a proxy from a client that sends the header itself.)
 */
function trustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const proxies = value.split(',').map((entry) => entry.trim());
  const bad = proxies.find((entry) => !isAddressOrRange(entry));
  if (bad !== undefined)
    throw new Error(
      `TRUST_PROXY must be true, false, or the proxies' addresses and CIDR ranges separated by commas; "${bad}" is none of those.`,
    );
  return proxies;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

function mailConfig(env: NodeJS.ProcessEnv, production: boolean): MailConfig {
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\/[^/]/.test(smtpUrl))
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587.');
  // A mail server would refuse (or mark as spam) the development sender; production names its own.
  if (smtpUrl && production && !env.MAIL_FROM)
    throw new Error(
      'Set MAIL_FROM (the sender of e-mail, e.g. "Trade Data console" <no-reply@example.com>) with SMTP_URL.',
    );
  const from = env.MAIL_FROM || '"Trade Data console" <no-reply@localhost>';
  if (!/^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(from.trim())) {
    throw new Error(
      `MAIL_FROM must be an address, optionally with a name ("Trade Data console" <no-reply@example.com>), got "${from}".`,
    );
  }
  return { smtpUrl, from: from.trim(), ...DEFAULT_MAIL_SCHEDULE };
}

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new Error(`${name} must be true or false, got "${value}".`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, least = 1): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < least)
    throw new Error(
      `${name} must be ${least === 0 ? 'a whole number of 0 or more' : 'a positive whole number'}, got "${value}".`,
    );
  return parsed;
}
