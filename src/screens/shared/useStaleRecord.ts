import { useState } from 'react';
import { isApiError } from '../../http/index.ts';
import type { StaleRecordState } from './StaleRecordNotice.tsx';

const PRECONDITION_FAILED = 412;

/** What a screen's reload read: the record's latest version, the fields it changed, and those where the user's typing was kept. */
export interface ReloadedRecord {
  version: number;
  changed: string[];
  keptTyped: string[];
}

export interface UseStaleRecordResult {
  /** The version a save applies to: the one opened, or the one the last Reload read. */
  version: number;
  /** The notice to show, or null. */
  notice: StaleRecordState | null;
  reloading: boolean;
  /** Before each save: the notice of an earlier one goes. */
  saving: () => void;
  /** After a failed save: a 412 means the record changed since it was read. */
  saveFailed: (error: unknown) => void;
  /** Reads the record again with `read` (which moves the screen's baseline, never what the user typed). */
  reload: (read: () => Promise<ReloadedRecord | undefined>) => Promise<void>;
}

/**
 * The version an edit screen saves against, kept apart from the query's data so that a background refetch never
 * moves it unseen; and the conflict a save can meet (412), until Reload brings the latest version.
 */
export function useStaleRecord(openedVersion: number): UseStaleRecordResult {
  const [version, setVersion] = useState(openedVersion);
  const [notice, setNotice] = useState<StaleRecordState | null>(null);
  const [reloading, setReloading] = useState(false);
  return {
    version,
    notice,
    reloading,
    saving: () => setNotice(null),
    saveFailed: (error) => {
      if (isApiError(error) && error.status === PRECONDITION_FAILED) setNotice({ kind: 'stale' });
    },
    reload: async (read) => {
      setReloading(true);
      try {
        const latest = await read();
        if (!latest) return;
        setVersion(latest.version);
        setNotice({ kind: 'reloaded', changed: latest.changed, keptTyped: latest.keptTyped });
      } catch {
        // The failed read has shown its "Error" toast; the notice stays, so Reload can be tried again.
      } finally {
        setReloading(false);
      }
    },
  };
}
