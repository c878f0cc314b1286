import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/utils';
import { MemoryUploadStore } from './memoryUploadStore.ts';

/** Where uploaded files go: a local folder by default, an S3-compatible bucket when configured (S3_BUCKET). */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** Rejects with `code: 'ENOENT'` when there is no such file. */
  get(key: string): Promise<Buffer>;
  /** The file's bytes as they are read, never held whole; rejects with `code: 'ENOENT'` when there is no such file. */
  read(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Resolves when the storage answers (`GET /readyz`): the folder exists and is writable, or the bucket answers. */
  ready(): Promise<void>;
  /**
   * Where a file arriving in chunks (the tus protocol) is written: into this storage under the key `get` reads it by,
   * with what the store keeps beside it to resume (`remove` removes that too).
   */
  resumableStore(): ResumableStore;
}

/** A tus data store that reads back what it has received (the folder's and the bucket's both do). */
export type ResumableStore = DataStore & { read(key: string): unknown };

/** The bytes a resumable store has received for `key`, from the first, as a Node stream. */
export async function readReceived(store: ResumableStore, key: string): Promise<Readable> {
  const body = await store.read(key);
  if (body instanceof Readable) return body;
  if (body instanceof Blob) return Readable.fromWeb(body.stream() as WebReadableStream);
  if (body instanceof ReadableStream) return Readable.fromWeb(body as WebReadableStream);
  throw new Error(`The stored file ${key} cannot be read as a stream.`);
}

/** The first `bytes` bytes of what a resumable store has received for `key` (fewer when the file is shorter). */
export async function readBeginning(store: ResumableStore, key: string, bytes: number): Promise<Buffer> {
  const stream = await readReceived(store, key);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
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

const SAFE_KEY = /^[a-z0-9][a-z0-9/_-]*\.(csv|csv\.gz|png|jpg|webp)$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
}

export class LocalFolderStorage implements FileStorage {
  private store: FileStore | null = null;

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

  async read(key: string): Promise<Readable> {
    assertSafeKey(key);
    // Opened before it is answered, so a missing file rejects here rather than in the middle of the stream.
    const file = await open(join(this.folder, key), 'r');
    // In pieces a parser gets through in a few milliseconds: each is parsed in one go, with no request answered meanwhile.
    return file.createReadStream({ highWaterMark: 64 * 1024 });
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    await rm(join(this.folder, key), { force: true });
    // What the resumable store keeps beside a file it received (its length and metadata).
    await rm(join(this.folder, `${key}.json`), { force: true });
  }

  async ready(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await access(this.folder, constants.W_OK);
  }

  resumableStore(): ResumableStore {
    // Made on first use, not with the storage: FileStore creates its folder when made, and throws outside any caller.
    this.store ??= new FileStore({ directory: this.folder });
    return this.store;
  }
}

/** A memory file is read in pieces of this size, as a file or a bucket object is. */
const MEMORY_CHUNK_BYTES = 64 * 1024;

/** For tests and in-memory runs: nothing touches the disk. */
export class MemoryStorage implements FileStorage {
  readonly files = new Map<string, Buffer>();
  private readonly store = new MemoryUploadStore(this.files);

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

  async read(key: string): Promise<Readable> {
    const data = await this.get(key);
    const chunks = Array.from({ length: Math.ceil(data.length / MEMORY_CHUNK_BYTES) }, (_, index) =>
      data.subarray(index * MEMORY_CHUNK_BYTES, (index + 1) * MEMORY_CHUNK_BYTES),
    );
    return Readable.from(chunks, { objectMode: false });
  }

  async remove(key: string): Promise<void> {
    this.files.delete(key);
    this.store.forget(key);
  }

  async ready(): Promise<void> {}

  resumableStore(): ResumableStore {
    return this.store;
  }
}
