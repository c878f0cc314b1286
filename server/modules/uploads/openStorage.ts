import type { ServerConfig } from '../../config.ts';
import { LocalFolderStorage, type FileStorage } from './storage.ts';

/** The storage the configuration names; the AWS SDK is loaded only when a bucket is configured. */
export async function openStorage(config: ServerConfig, localFolder: string): Promise<FileStorage> {
  if (!config.s3) return new LocalFolderStorage(localFolder);
  const { S3BucketStorage } = await import('./s3Storage.ts');
  return new S3BucketStorage(config.s3);
}
