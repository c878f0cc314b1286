import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where uploaded files go: a local folder by default, an S3-compatible bucket when configured (S3_BUCKET). */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** Rejects with `code: 'ENOENT'` when there is no such file. */
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
  /** Resolves when the storage answers (`GET /readyz`): the folder exists and is writable, or the bucket answers. */
  ready(): Promise<void>;
}

export interface StoredObject {
  size: number;
  contentType: string | null;
  lastModified: Date | null;
}

/**
 * A storage the browser sends files to directly (a presigned POST to a bucket), so they never pass through
 * the server; the server reads them back when told they are there.
 */
export interface DirectUploadStorage extends FileStorage {
  /** The URL to post to and the signed form fields that bind the post to this key, size range, type and expiry. */
  presignPost(key: string, limits: { maxBytes: number; contentType: string; expiresAt: Date }): Promise<{ url: string; fields: Record<string, string> }>;
  /** Size, type and arrival time of a stored file, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** The origin browsers post to, for the content security policy's connect-src. */
  postOrigin(): Promise<string>;
}

export function takesDirectUploads(storage: FileStorage): storage is DirectUploadStorage {
  return 'presignPost' in storage && typeof storage.presignPost === 'function';
}

/**
 * What the server records of the bytes it checked when it accepted a file (`upload_files.stored_sha256`), and
 * compares the bytes it imports with, for every storage: hex SHA-256.
 */
export function contentHash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** True for the error `get` rejects with when the file is not there. */
export function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_-]*\.(csv|png|jpg|webp)$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
}

export class LocalFolderStorage implements FileStorage {
  constructor(private readonly folder: string) {}

  async put(key: string, data: Buffer): Promise<void> {
    assertSafeKey(key);
    const path = join(this.folder, key);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, data, { flag: 'wx', mode: 0o600 });
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    return readFile(join(this.folder, key));
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    await rm(join(this.folder, key), { force: true });
  }

  async ready(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await access(this.folder, constants.W_OK);
  }
}

/** For tests and in-memory runs: nothing touches the disk. */
export class MemoryStorage implements FileStorage {
  readonly files = new Map<string, Buffer>();

  async put(key: string, data: Buffer): Promise<void> {
    assertSafeKey(key);
    this.files.set(key, data);
  }

  async get(key: string): Promise<Buffer> {
    const data = this.files.get(key);
    // The same code a missing file on disk gives, so callers can tell "not there" from a failure.
    if (!data) throw Object.assign(new Error(`No stored file ${key}`), { code: 'ENOENT' });
    return data;
  }

  async remove(key: string): Promise<void> {
    this.files.delete(key);
  }

  async ready(): Promise<void> {}
}
