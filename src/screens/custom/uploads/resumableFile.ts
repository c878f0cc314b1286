import type { PreviousUpload, Upload } from 'tus-js-client';

/** Each request carries at most this much of the file, so a break loses at most one chunk in flight. */
const CHUNK_BYTES = 32 * 1024 * 1024;
/** Waits before each new try after a failed request (a dropped connection); then the user resumes by hand. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];

/** What is kept in the browser (localStorage, by tus-js-client) of a file being sent, to resume it after a reload. */
export interface SentFileRecord {
  uploadId: number;
  completePath: string;
  /** When sending began, ms since the epoch. */
  startedAt: number;
}

export interface SendingEvents {
  onProgress(sent: number, total: number): void;
  onSent(): void;
  onError(error: Error): void;
}

export interface SendingFile {
  pause(): void;
  resume(): void;
}

/** The same file, picked again, whatever upload it was started for: its name, size and date of change. */
const fingerprintOf = (file: File) => `trade-upload:${file.name}:${file.size}:${file.lastModified}`;

/** tus-js-client, loaded with the first file picked rather than with the console or the upload screen. */
const client = () => import('tus-js-client');

/** The upload this file was being sent for when the page was left, if the browser kept it. */
export async function unfinishedSending(
  file: File,
): Promise<{ record: SentFileRecord; previous: PreviousUpload } | null> {
  const { Upload } = await client();
  const probe = new Upload(file, { fingerprint: async () => fingerprintOf(file) });
  const previous = (await probe.findPreviousUploads()).sort(
    (a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime),
  )[0];
  const uploadId = Number(previous?.metadata.upload_id);
  if (!previous || !Number.isSafeInteger(uploadId) || !previous.metadata.complete_path) return null;
  return {
    previous,
    record: { uploadId, completePath: previous.metadata.complete_path, startedAt: Date.parse(previous.creationTime) },
  };
}

/** Forgets an unfinished sending the user chose not to resume. */
export async function forgetSending(previous: PreviousUpload): Promise<void> {
  const { defaultOptions } = await client();
  await defaultOptions.urlStorage.removeUpload(previous.urlStorageKey);
}

/**
 * Sends a file to its upload's signed URL by the tus protocol, in chunks, resuming from what the server has after a
 * break (retried by itself a few times, then by `resume`) or, with `previous`, after a reload of the page.
 */
export async function sendFile(
  file: File,
  target: { url: string; record: SentFileRecord; previous?: PreviousUpload },
  events: SendingEvents,
): Promise<SendingFile> {
  const { Upload } = await client();
  const upload: Upload = new Upload(file, {
    endpoint: new URL(target.url, window.location.href).href,
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    fingerprint: async () => fingerprintOf(file),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    metadata: {
      filename: file.name,
      upload_id: String(target.record.uploadId),
      complete_path: target.record.completePath,
    },
    onProgress: events.onProgress,
    onSuccess: () => events.onSent(),
    onError: (error) => events.onError(error),
  });
  if (target.previous) upload.resumeFromPreviousUpload(target.previous);
  upload.start();
  return {
    pause: () => void upload.abort(false),
    resume: () => upload.start(),
  };
}

/**
 * Why sending stopped: the server refused the file (a 4xx, with its JSON `message`: no use resending), the connection
 * broke or the server failed (resumable), or no request could be made at all (the browser could not read the file).
 */
export type SendingFailure =
  { kind: 'refused'; message: string } | { kind: 'interrupted' } | { kind: 'unreadable'; message: string };

export function failureOf(error: Error): SendingFailure {
  const { originalRequest, originalResponse } = error as Error & {
    originalRequest?: unknown;
    originalResponse?: { getStatus(): number; getBody(): string } | null;
  };
  if (!originalRequest) return { kind: 'unreadable', message: error.message };
  const status = originalResponse?.getStatus() ?? 0;
  if (!originalResponse || status < 400 || status >= 500) return { kind: 'interrupted' };
  try {
    return {
      kind: 'refused',
      message: (JSON.parse(originalResponse.getBody()) as { message?: string }).message ?? error.message,
    };
  } catch {
    return { kind: 'refused', message: error.message };
  }
}
