import { useCallback, useEffect, useRef, useState } from 'react';
import type { PreviousUpload } from 'tus-js-client';
import { failureOf, sendFile, type SendingFile, type SentFileRecord } from './resumableFile.ts';
import { progressed, type SendingState } from './SendingProgress.tsx';

/** Where a file is sent: its upload's signed tus endpoint, and a previous sending of it to resume, if any. */
export interface SendingTarget {
  url: string;
  record: SentFileRecord;
  previous?: PreviousUpload | undefined;
}

export interface SendingOutcome {
  /** The whole file is there. */
  onSent: () => void;
  /** The server refused the file itself, or the browser could not read it (`message` says which). */
  onFailed: (message: string) => void;
}

export interface UseFileSendingResult {
  /** The sending in progress (its progress, speed samples, pause), null when none. */
  sending: SendingState | null;
  send: (target: SendingTarget, file: File, outcome: SendingOutcome) => Promise<void>;
  pause: () => void;
  resume: () => void;
}

/**
 * A file sent in chunks to its upload's signed URL (tus), with its progress, a pause, and a resume: by the user, or
 * by itself when the browser is back online after the connection was lost.
 */
export function useFileSending(): UseFileSendingResult {
  const [sending, setSending] = useState<SendingState | null>(null);
  const transfer = useRef<SendingFile | null>(null);

  const send = async ({ url, record, previous }: SendingTarget, file: File, { onSent, onFailed }: SendingOutcome) => {
    setSending({ sent: 0, total: file.size, paused: false, stopped: null, samples: [] });
    transfer.current = await sendFile(
      file,
      { url, record, ...(previous ? { previous } : {}) },
      {
        onProgress: (sent, total) => setSending((state) => state && progressed(state, sent, total)),
        onSent: () => {
          transfer.current = null;
          setSending(null);
          onSent();
        },
        onError: (error) => {
          const failure = failureOf(error);
          if (failure.kind === 'interrupted') {
            setSending((state) => state && { ...state, stopped: 'the connection to the server was lost' });
            return;
          }
          // The server refused the file itself (its link expired, a size that is not the announced one), or the browser
          // could not read it: resending would not help.
          transfer.current = null;
          setSending(null);
          onFailed(failure.message);
        },
      },
    );
  };

  const pause = () => {
    transfer.current?.pause();
    setSending((state) => state && { ...state, paused: true, samples: [] });
  };
  const resume = useCallback(() => {
    transfer.current?.resume();
    setSending((state) => state && { ...state, paused: false, stopped: null, samples: [] });
  }, []);
  // A browser that knew it was offline gives up at once (tus-js-client retries only while online): sending resumes by
  // itself when the connection is back, as the help under the bar says.
  const stoppedByConnection = sending?.stopped != null;
  useEffect(() => {
    if (!stoppedByConnection) return;
    window.addEventListener('online', resume);
    return () => window.removeEventListener('online', resume);
  }, [stoppedByConnection, resume]);

  return { sending, send, pause, resume };
}
