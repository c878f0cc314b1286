import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerConfig } from '../../config.ts';

/** The signature of an upload URL: which upload, until when. Keyed from the server secret. */
export function uploadSignature(secret: Uint8Array, uploadId: number, expiresAt: number): string {
  return createHmac('sha256', secret).update(`upload:${uploadId}:${expiresAt}`).digest('base64url');
}

export function isValidUploadSignature(
  secret: Uint8Array,
  uploadId: number,
  expiresAt: number,
  signature: string,
): boolean {
  const expected = Buffer.from(uploadSignature(secret, uploadId, expiresAt));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The signed URL of an upload's file. Its origin is PUBLIC_URL when configured, else none, so the URL stays relative to
 * the page that asked for it; never the request's Host header, which the caller chooses.
 */
export function signedFileUrl(
  config: Pick<ServerConfig, 'publicUrl' | 'jwtSecret'>,
  uploadId: number,
  expiresAt: number,
): string {
  const origin = (config.publicUrl ?? '').replace(/\/$/, '');
  return `${origin}/api/v1/uploads/${uploadId}/file?expires=${expiresAt}&signature=${uploadSignature(config.jwtSecret, uploadId, expiresAt)}`;
}
