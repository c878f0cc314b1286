import { useState } from 'react';
import { changedBy, type HistoryEntryAnswer } from '../../../contract/audit.ts';
import type { FieldDescription, ResourceDescription } from '../../generated/types.ts';
import { isApiError } from '../../http/index.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { formatDate } from '../shared/formatValue.ts';
import { humanize } from '../shared/humanize.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { actionLabel } from './actionLabel.ts';
import { ChangesTable } from './ChangesTable.tsx';
import { entrySummary } from './entrySummary.ts';
import { readableChanges } from './readableChanges.ts';
import { useRecordHistory } from './useRecordHistory.ts';
import { useRestoreVersion } from './useRestoreVersion.ts';
import './HistoryPanel.css';
import { BusyButton } from '../shared/BusyButton.tsx';

const PRECONDITION_FAILED = 412;

export interface HistoryPanelProps {
  resource: ResourceDescription;
  recordId: string;
  version: number;
}

/**
 * A record's changes, newest first, as a person reads them, older ones a page at a time; with "Restore this version"
 * (confirmed) for users who may edit. Restoring reloads the record and its history.
 */
export default function HistoryPanel({ resource, recordId, version }: HistoryPanelProps) {
  const history = useRecordHistory(resource.api, recordId);
  const mayRestore = useResourceAccess(resource).edit;
  const restore = useRestoreVersion(resource.api, recordId, version);
  const [pending, setPending] = useState<HistoryEntryAnswer | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const fields = resource.entity?.fields ?? [];
  const what = resource.singular.toLowerCase();
  const entries = history.data?.pages.flatMap((page) => page.data) ?? [];

  const confirm = async () => {
    if (!pending) return;
    setRefusal(null);
    await restore.mutateAsync(pending).catch((error: unknown) => setRefusal(refusalText(error, what, fields)));
    setPending(null);
  };

  return (
    <div className="history-panel">
      {refusal && (
        <p role="alert" className="history-alert">
          {refusal}
        </p>
      )}
      <QueryState query={history} what="the history">
        {entries.length === 0 ? (
          <p className="changes-none">No changes recorded yet.</p>
        ) : (
          <ol className="history-list">
            {entries.map((entry) => {
              const when = formatDate(entry.at, true);
              const changes = readableChanges(entry.changes, fields, entry.labels);
              const summary = entrySummary(entry);
              return (
                <li key={entry.id} className="history-entry">
                  <div className="history-entry__head">
                    <p className="history-entry__what">
                      <strong>{actionLabel(entry.action)}</strong>{' '}
                      <span className="history-entry__who">
                        {when} by {changedBy(entry) ?? 'the system'}
                      </span>
                    </p>
                    {mayRestore && entry.restorable && (
                      <button type="button" className="button" onClick={() => setPending(entry)}>
                        Restore this version<span className="visually-hidden"> of {when}</span>
                      </button>
                    )}
                  </div>
                  {summary && <p className="history-entry__summary">{summary}</p>}
                  {(changes.length > 0 || !summary) && (
                    <ChangesTable changes={changes} caption={`Changes of ${when}`} />
                  )}
                </li>
              );
            })}
          </ol>
        )}
        {history.hasNextPage && (
          <BusyButton
            onClick={() => history.fetchNextPage()}
            busy={history.isFetchingNextPage}
            busyLabel="Loading older changes…"
          >
            Show older
          </BusyButton>
        )}
      </QueryState>
      {pending && (
        <ConfirmDialog
          title="Restore this version?"
          confirmLabel="Restore"
          busy={restore.isPending}
          onConfirm={confirm}
          onCancel={() => setPending(null)}
        >
          <p>
            The {what} takes back the values it had after the change of {formatDate(pending.at, true)}. Its current
            values stay in the history, so this can be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** Why a restore was refused, in words: a stale version, or the server's message naming the field. */
function refusalText(error: unknown, what: string, fields: readonly FieldDescription[]): string {
  if (!isApiError(error)) return 'The version could not be restored.';
  if (error.status === PRECONDITION_FAILED) {
    return `This ${what} was changed by someone else since the page was loaded, so the version was not restored. The page now shows the latest version; restore again if it is still needed.`;
  }
  const byField = Object.entries(error.fieldErrors).map(
    ([name, text]) => `${fields.find((field) => field.name === name)?.title ?? humanize(name)}: ${text}`,
  );
  return [`The version could not be restored: ${error.message}`, ...byField].join(' ');
}
