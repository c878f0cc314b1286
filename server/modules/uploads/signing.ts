import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature of an upload URL: which upload, until when. Keyed from the server secret. */
export function uploadSignature(secret: Uint8Array, uploadId: number, expiresAt: number): string {
  return createHmac('sha256', secret).update(`upload:${uploadId}:${expiresAt}`).digest('base64url');
}

export function isValidUploadSignature(secret: Uint8Array, uploadId: number, expiresAt: number, signature: string): boolean {
  const expected = Buffer.from(uploadSignature(secret, uploadId, expiresAt));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
