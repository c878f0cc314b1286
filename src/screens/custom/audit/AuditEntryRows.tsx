import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { changedBy, type AuditEntryAnswer } from '../../../../contract/audit.ts';
import type { ModuleKey } from '../../../generated/permissions.ts';
import { actionLabel } from '../../history/actionLabel.ts';
import { entrySummary } from '../../history/entrySummary.ts';
import { ChangesTable } from '../../history/ChangesTable.tsx';
import { readableChanges } from '../../history/readableChanges.ts';
import { DetailItem } from '../../shared/DetailItem.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import { useResourceDescription } from '../../shared/useResourceDescription.ts';
import { moduleLabel } from './auditModules.ts';

/** How many changed fields the collapsed row names before "and N more". */
const SUMMARY_FIELDS = 3;

export const AUDIT_COLUMNS = ['When', 'Who', 'Module', 'Action', 'Record', 'Changes'] as const;

export interface AuditEntryRowsProps {
  entry: AuditEntryAnswer;
  /** The record's detail screen, when there is one the user may open. */
  recordPath: string | null;
}

/**
 * One entry: when, who, module, action, record and what it did (in words, as a record's History says it, else the
 * changed fields by title); expanded, the changes before and
 * after (titles and labels from the module's description, loaded with its area), the client address and request id.
 */
export function AuditEntryRows({ entry, recordPath }: AuditEntryRowsProps) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const fields = useResourceDescription(entry.module as ModuleKey)?.entity?.fields;
  const changes = readableChanges(entry.changes, fields);
  const when = formatDate(entry.at, true);
  const record = entry.record_id === null ? '—' : `#${entry.record_id}`;
  const named = changes.slice(0, SUMMARY_FIELDS).map((change) => change.title);
  const more = changes.length - named.length;
  // A top-up, a sale or another entry that changed no field says what happened, as the record's History does.
  const summary = entrySummary(entry);
  return (
    <>
      <tr>
        <td>{when}</td>
        <td>{changedBy(entry) ?? '—'}</td>
        <td>{moduleLabel(entry.module)}</td>
        <td>{actionLabel(entry.action)}</td>
        <td>
          {recordPath ? (
            <Link to={recordPath} aria-label={`Open record ${record} of ${moduleLabel(entry.module)}`}>
              {record}
            </Link>
          ) : (
            record
          )}
        </td>
        <td>
          <div className="audit-summary">
            <span>
              {summary ??
                (named.length === 0 ? 'No field changed' : `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`)}
            </span>
            <button
              type="button"
              className="link-button"
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide details' : 'Show details'}
              <span className="visually-hidden"> of the entry of {when}</span>
            </button>
          </div>
        </td>
      </tr>
      <tr id={detailsId} hidden={!open} className="audit-details">
        <td colSpan={AUDIT_COLUMNS.length}>
          {open && (
            <div className="audit-details__body">
              <ChangesTable changes={changes} caption={`Changes of the entry of ${when}`} />
              <dl className="detail-list">
                <DetailItem term="Client address">{entry.client_address ?? '—'}</DetailItem>
                <DetailItem term="Request ID">{entry.request_id ?? '—'}</DetailItem>
              </dl>
            </div>
          )}
        </td>
      </tr>
    </>
  );
}
