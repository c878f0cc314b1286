import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where uploaded files go. A local folder by default; an S3-compatible bucket would implement the same. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_-]*\.(csv|png|jpg|webp)$/;

function assertSafeKey(key: string): void {
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
}
