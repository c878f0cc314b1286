import { isIP } from 'node:net';
import { resolve } from 'node:path';
import {
  DEFAULT_MAIL_SCHEDULE,
  DEFAULT_PASSWORD_HASHING,
  DEFAULT_WEBHOOK_SCHEDULE,
  type MailConfig,
  type S3Config,
  type ServerConfig,
  type TrustProxy,
  type WebhookConfig,
} from '../config.ts';
import type { LogFormat } from '../http/requestLog.ts';
import { jwtSecret } from './jwtSecret.ts';

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

/** Where the server listens (PORT, HOST): read before the rest, so the port is taken before any start-up work. */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } {
  return { port: integer(env, 'PORT', 8080), host: env.HOST ?? '127.0.0.1' };
}

/** Hosts a browser on this machine reaches as localhost: loopback, or every interface. */
const LOCAL_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::']);

/**
 * The address to open the console at: PUBLIC_URL, else localhost when this machine reaches it so, the origin that
 * passkeys and e-mail links answer to without PUBLIC_URL (a passkey made at 127.0.0.1 would not sign in there).
 */
export function openingAddress(config: Pick<ServerConfig, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/$/, '');
  const host = LOCAL_HOSTS.has(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
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
    webhooks: webhookConfig(env, production),
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

function webhookConfig(env: NodeJS.ProcessEnv, production: boolean): WebhookConfig {
  const receivers = env.WEBHOOK_RECEIVERS || (production ? 'public' : 'loopback');
  if (receivers !== 'public' && receivers !== 'loopback' && receivers !== 'private')
    throw new Error(`WEBHOOK_RECEIVERS must be public, loopback or private, not ${JSON.stringify(receivers)}.`);
  return { receivers, keptDays: integer(env, 'WEBHOOK_LOG_KEPT_DAYS', 30, 1), ...DEFAULT_WEBHOOK_SCHEDULE };
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
