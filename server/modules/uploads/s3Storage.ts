import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { S3Config } from '../../config.ts';
import { assertSafeKey, type FileStorage, type ResumableStore } from './storage.ts';

/** The size of the parts a file received in chunks is sent to the bucket in (S3 multipart upload; at least 5 MiB). */
const PART_BYTES = 8 * 1024 * 1024;

/** Files in an S3-compatible bucket; uploads reach it through the server, in parts (S3 multipart upload). */
export class S3BucketStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly clientConfig: S3ClientConfig;
  private store: S3Store | null = null;

  constructor(settings: S3Config) {
    this.bucket = settings.bucket;
    this.clientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    };
    this.client = new S3Client(this.clientConfig);
  }

  async put(key: string, data: Buffer): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data }));
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    } catch (error) {
      // The code a missing file on disk gives, so callers tell "not there" from a failure the same way.
      if (isNotFound(error)) throw Object.assign(new Error(`No stored file ${key}`), { code: 'ENOENT' });
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error(`The bucket answered no readable body for ${key}`);
      return object.Body;
    } catch (error) {
      if (isNotFound(error)) throw Object.assign(new Error(`No stored file ${key}`), { code: 'ENOENT' });
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    // With the objects the resumable store keeps beside the file: its length (.info) and a last part under 5 MiB (.part).
    const objects = [key, `${key}.info`, `${key}.part`].map((Key) => ({ Key }));
    await this.client.send(
      new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }),
    );
  }

  async ready(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  resumableStore(): ResumableStore {
    this.store ??= new S3Store({ partSize: PART_BYTES, s3ClientConfig: { ...this.clientConfig, bucket: this.bucket } });
    return this.store;
  }
}

/** No such key (GET answers NoSuchKey, HEAD a bare 404); a missing bucket is a failure, not a missing file. */
function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}
