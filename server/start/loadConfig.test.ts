import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFolderOfServer, loadConfig, openingAddress } from './loadConfig.ts';

let folder: string | undefined;

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('the data folder in the configuration', () => {
  it('generates the JWT secret once, whole, readable by the owner only, and leaves no temporary file', () => {
    folder = mkdtempSync(join(tmpdir(), 'config-'));
    const first = loadConfig({ DATA_DIR: folder } as NodeJS.ProcessEnv);
    const second = loadConfig({ DATA_DIR: folder } as NodeJS.ProcessEnv);
    expect(first.jwtSecret.length).toBe(64);
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    expect(readFileSync(join(folder, 'jwt-secret'), 'utf8')).toBe(Buffer.from(first.jwtSecret).toString());
    expect(statSync(join(folder, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(['jwt-secret']);
  });

  it('refuses a secret file left empty (by a process killed while writing it) instead of signing with an empty key', () => {
    folder = mkdtempSync(join(tmpdir(), 'config-'));
    writeFileSync(join(folder, 'jwt-secret'), '');
    expect(() => loadConfig({ DATA_DIR: folder } as NodeJS.ProcessEnv)).toThrow(
      `${join(folder, 'jwt-secret')} holds no valid secret (under 32 characters)`,
    );
  });

  it('locks the data folder unless the server keeps nothing in it (PostgreSQL, a bucket and JWT_SECRET)', () => {
    folder = mkdtempSync(join(tmpdir(), 'config-'));
    const env = { DATA_DIR: folder, DATABASE_URL: 'postgres://db/app', S3_BUCKET: 'files', JWT_SECRET: 's'.repeat(32) };
    expect(dataFolderOfServer({} as NodeJS.ProcessEnv)).toBe(join(process.cwd(), '.data'));
    expect(dataFolderOfServer({ ...env, DATABASE_URL: '' } as NodeJS.ProcessEnv)).toBe(folder);
    expect(dataFolderOfServer({ ...env, S3_BUCKET: undefined } as NodeJS.ProcessEnv)).toBe(folder);
    expect(dataFolderOfServer({ ...env, JWT_SECRET: undefined } as NodeJS.ProcessEnv)).toBe(folder);
    expect(dataFolderOfServer(env as NodeJS.ProcessEnv)).toBeNull();
  });
});

describe('the address npm start prints', () => {
  it('is localhost on loopback or every interface (the origin passkeys answer to), the host elsewhere, PUBLIC_URL when set', () => {
    const at = (host: string, publicUrl: string | null = null) => openingAddress({ host, port: 8080, publicUrl });
    expect(at('127.0.0.1')).toBe('http://localhost:8080');
    expect(at('0.0.0.0')).toBe('http://localhost:8080');
    expect(at('::')).toBe('http://localhost:8080');
    expect(at('::1')).toBe('http://localhost:8080');
    expect(at('192.168.1.20')).toBe('http://192.168.1.20:8080');
    expect(at('fd00::20')).toBe('http://[fd00::20]:8080');
    expect(at('0.0.0.0', 'https://admin.example.com/')).toBe('https://admin.example.com');
    folder = mkdtempSync(join(tmpdir(), 'config-'));
    expect(openingAddress(loadConfig({ DATA_DIR: folder, PORT: '9090' } as NodeJS.ProcessEnv))).toBe(
      'http://localhost:9090',
    );
  });
});

describe('settings for several instances', () => {
  const env = (values: Record<string, string>) =>
    ({
      DATABASE_URL: 'postgres://db/app',
      S3_BUCKET: 'files',
      JWT_SECRET: 's'.repeat(32),
      ...values,
    }) as NodeJS.ProcessEnv;
  const config = (values: Record<string, string>) => loadConfig(env(values), { dataDir: null });

  it('defaults: 20 connections per instance, no proxy trusted, no drain, uploads retried every 30 s under a 60 s lease', () => {
    expect(config({})).toMatchObject({
      databasePoolSize: 20,
      trustProxy: false,
      stopDrainSeconds: 0,
      stopGraceSeconds: 30,
      uploadRetrySeconds: 30,
      uploadLeaseSeconds: 60,
    });
    expect(
      config({
        DATABASE_POOL_SIZE: '8',
        STOP_DRAIN_SECONDS: '10',
        UPLOAD_RETRY_SECONDS: '5',
        UPLOAD_LEASE_SECONDS: '120',
      }),
    ).toMatchObject({
      databasePoolSize: 8,
      stopDrainSeconds: 10,
      uploadRetrySeconds: 5,
      uploadLeaseSeconds: 120,
    });
  });

  it('TRUST_PROXY takes true, false, or the proxies’ addresses and CIDR ranges; anything else is refused naming the setting', () => {
    expect(config({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(config({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(config({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
    for (const bad of ['2', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/8', 'yes']) {
      expect(() => config({ TRUST_PROXY: bad }), bad).toThrow(
        /^TRUST_PROXY must be true, false, or the proxies' addresses and CIDR ranges/,
      );
    }
  });

  it('a number that is not one is refused naming its setting; STOP_DRAIN_SECONDS may be 0, the others not', () => {
    expect(() => config({ DATABASE_POOL_SIZE: '0' })).toThrow(
      'DATABASE_POOL_SIZE must be a positive whole number, got "0".',
    );
    expect(() => config({ UPLOAD_LEASE_SECONDS: '1.5' })).toThrow(
      'UPLOAD_LEASE_SECONDS must be a positive whole number, got "1.5".',
    );
    expect(() => config({ STOP_DRAIN_SECONDS: '-1' })).toThrow(
      'STOP_DRAIN_SECONDS must be a whole number of 0 or more, got "-1".',
    );
    expect(config({ STOP_DRAIN_SECONDS: '0' }).stopDrainSeconds).toBe(0);
  });

  it('logs pretty lines outside production and JSON in it unless LOG_FORMAT says; METRICS_TOKEN is a long secret or nothing', () => {
    expect(config({}).logFormat).toBe('pretty');
    expect(config({ NODE_ENV: 'production' }).logFormat).toBe('json');
    expect(config({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(config({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => config({ LOG_FORMAT: 'text' })).toThrow('LOG_FORMAT must be json or pretty, not "text".');
    expect(config({}).metricsToken).toBeNull();
    expect(config({ METRICS_TOKEN: 'm'.repeat(16) }).metricsToken).toBe('m'.repeat(16));
    expect(() => config({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters.');
  });

  it('sends webhooks to public addresses only in production, to this machine elsewhere, unless WEBHOOK_RECEIVERS says', () => {
    expect(config({ NODE_ENV: 'production' }).webhooks.receivers).toBe('public');
    expect(config({}).webhooks.receivers).toBe('loopback');
    expect(config({ NODE_ENV: 'production', WEBHOOK_RECEIVERS: 'private' }).webhooks.receivers).toBe('private');
    expect(() => config({ WEBHOOK_RECEIVERS: 'anywhere' })).toThrow(
      'WEBHOOK_RECEIVERS must be public, loopback or private, not "anywhere".',
    );
    expect(config({ WEBHOOK_LOG_KEPT_DAYS: '7' }).webhooks.keptDays).toBe(7);
  });
});

describe('e-mail in the configuration', () => {
  const base = { JWT_SECRET: 's'.repeat(32) };

  it('reads SMTP_URL and MAIL_FROM, and without SMTP_URL sends nothing', () => {
    folder = mkdtempSync(join(tmpdir(), 'config-'));
    const env = {
      ...base,
      DATA_DIR: folder,
      SMTP_URL: 'smtps://mailer:secret@mail.example.com:465',
      MAIL_FROM: '"Trade Data" <no-reply@example.com>',
    };
    expect(loadConfig(env as NodeJS.ProcessEnv).mail).toMatchObject({
      smtpUrl: 'smtps://mailer:secret@mail.example.com:465',
      from: '"Trade Data" <no-reply@example.com>',
    });
    expect(loadConfig({ ...base, DATA_DIR: folder } as NodeJS.ProcessEnv).mail).toMatchObject({
      smtpUrl: null,
      from: '"Trade Data console" <no-reply@localhost>',
    });
  });

  it('refuses an SMTP_URL that is no smtp(s) URL, a MAIL_FROM that is no address, and SMTP_URL without MAIL_FROM in production', () => {
    folder = mkdtempSync(join(tmpdir(), 'config-'));
    const env = { ...base, DATA_DIR: folder };
    expect(() => loadConfig({ ...env, SMTP_URL: 'mail.example.com:25' } as NodeJS.ProcessEnv)).toThrow(
      'SMTP_URL must be an smtp:// or smtps:// URL',
    );
    expect(() => loadConfig({ ...env, MAIL_FROM: 'Trade Data console' } as NodeJS.ProcessEnv)).toThrow(
      'MAIL_FROM must be an address',
    );
    expect(() =>
      loadConfig({ ...env, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587' } as NodeJS.ProcessEnv),
    ).toThrow('Set MAIL_FROM');
    expect(
      loadConfig({
        ...env,
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail.example.com:587',
        MAIL_FROM: 'ops@example.com',
      } as NodeJS.ProcessEnv).mail.from,
    ).toBe('ops@example.com');
  });
});
