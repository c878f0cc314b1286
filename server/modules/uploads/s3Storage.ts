import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { S3Config } from '../../config.ts';
import { assertSafeKey, type DirectUploadStorage, type StoredObject } from './storage.ts';

/** Files in an S3-compatible bucket; browsers post uploads to it with a presigned POST. */
export class S3BucketStorage implements DirectUploadStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Config) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
    });
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

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async ready(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async stat(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? null, lastModified: head.LastModified ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async presignPost(key: string, limits: { maxBytes: number; contentType: string; expiresAt: Date }): Promise<{ url: string; fields: Record<string, string> }> {
    assertSafeKey(key);
    // The SDK adds the key, the bucket and every field (here Content-Type) to the policy as exact matches.
    return createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: key,
      Fields: { 'Content-Type': limits.contentType },
      Conditions: [['content-length-range', 1, limits.maxBytes]],
      Expires: Math.max(1, Math.ceil((limits.expiresAt.getTime() - Date.now()) / 1000)),
    });
  }

  async postOrigin(): Promise<string> {
    const { url } = await this.presignPost('uploads/origin.csv', { maxBytes: 1, contentType: 'text/csv', expiresAt: new Date(Date.now() + 1000) });
    return new URL(url).origin;
  }
}

/** No such key (GET answers NoSuchKey, HEAD a bare 404); a missing bucket is a failure, not a missing file. */
function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}
