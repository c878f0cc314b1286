import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../start/loadConfig.ts';
import { S3BucketStorage } from './s3Storage.ts';
import { openStorage } from './openStorage.ts';
import { LocalFolderStorage } from './storage.ts';

const configOf = (env: Record<string, string>) =>
  loadConfig({ NODE_ENV: 'test', ...env } as NodeJS.ProcessEnv, { dataDir: null });

describe('upload storage from the configuration', () => {
  it('is the data folder unless S3_BUCKET names a bucket', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'uploads-'));
    try {
      const local = await openStorage(configOf({}), folder);
      expect(local).toBeInstanceOf(LocalFolderStorage);
      await local.put('uploads/1-ab.csv', Buffer.from('a,b'));
      expect((await local.get('uploads/1-ab.csv')).toString()).toBe('a,b');
      await expect(local.get('uploads/2-ab.csv')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reads the S3_* variables, with defaults for the region and path style', async () => {
    const config = configOf({
      S3_BUCKET: 'trade-uploads',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toEqual({
      bucket: 'trade-uploads',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(configOf({ S3_BUCKET: 'trade-uploads', S3_REGION: 'eu-west-1' }).s3).toEqual({
      bucket: 'trade-uploads',
      region: 'eu-west-1',
      endpoint: null,
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    });
    const bucket = await openStorage(config, '/nonexistent');
    expect(bucket).toBeInstanceOf(S3BucketStorage);
  });

  it('refuses half a key pair, an endpoint that is not a URL and a path-style flag that is not a boolean', () => {
    expect(() => configOf({ S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      'Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither.',
    );
    expect(() => configOf({ S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio:9000' })).toThrow(
      'S3_ENDPOINT must be an http(s) URL',
    );
    expect(() => configOf({ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      'S3_FORCE_PATH_STYLE must be true or false',
    );
  });
});

describe('the upload folder answers readiness', () => {
  it('creates the folder when missing, and fails when it cannot be a folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'storage-ready-'));
    try {
      await new LocalFolderStorage(join(root, 'files')).ready();
      expect((await stat(join(root, 'files'))).isDirectory()).toBe(true);
      await writeFile(join(root, 'taken'), 'a file where the folder should be');
      await expect(new LocalFolderStorage(join(root, 'taken', 'files')).ready()).rejects.toThrow();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
