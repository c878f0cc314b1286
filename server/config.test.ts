import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFolderOfServer, loadConfig } from './config.ts';

let folder: string;

afterEach(() => rmSync(folder, { recursive: true, force: true }));

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
    expect(() => loadConfig({ DATA_DIR: folder } as NodeJS.ProcessEnv)).toThrow(`${join(folder, 'jwt-secret')} holds no valid secret (under 32 characters)`);
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
