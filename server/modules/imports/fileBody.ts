import type { IncomingMessage } from 'node:http';
import { HttpError } from '../../http/errors.ts';
import { IMPORT_MAX_BYTES, mebibytes } from './importLimits.ts';

/** Room for the multipart headers and boundaries around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;
const BODY_LIMIT = IMPORT_MAX_BYTES + MULTIPART_OVERHEAD;

export function fileTooLarge(): HttpError {
  const message = `A file to import may be at most ${mebibytes(IMPORT_MAX_BYTES)}.`;
  return new HttpError(413, message, { file: message });
}

/**
 * A multipart body of an import, refused (413) as soon as its declared or received length passes the limit. The bytes
 * are copied into one buffer of its own as they arrive, a chunk at a time, never in one copy of 32 MiB at the end;
 * having its own memory, the buffer can be handed to the reading worker without another copy.
 */
export function receiveImportFile(payload: IncomingMessage): Promise<Buffer> {
  const declared = Number(payload.headers['content-length']);
  if (declared > BODY_LIMIT) return Promise.reject(fileTooLarge());
  return new Promise((resolve, reject) => {
    let body = Buffer.allocUnsafeSlow(Number.isSafeInteger(declared) && declared > 0 ? declared : MULTIPART_OVERHEAD);
    let received = 0;
    const stop = (error: Error) => {
      payload.removeAllListeners('data');
      reject(error);
    };
    payload.on('data', (chunk: Buffer) => {
      if (received + chunk.length > BODY_LIMIT) return stop(fileTooLarge());
      if (received + chunk.length > body.length) {
        const grown = Buffer.allocUnsafeSlow(Math.min(BODY_LIMIT, Math.max(body.length * 2, received + chunk.length)));
        body.copy(grown, 0, 0, received);
        body = grown;
      }
      chunk.copy(body, received);
      received += chunk.length;
    });
    payload.once('error', stop);
    payload.once('end', () => {
      if (Number.isSafeInteger(declared) && received !== declared)
        reject(new HttpError(400, 'The request body is shorter than its Content-Length.'));
      else resolve(body.subarray(0, received));
    });
  });
}
