import { useEffect, useRef } from 'react';
import { generatePath, Link } from 'react-router-dom';
import { DATA_UPLOAD_FIELDS } from '../../../../contract/modules.ts';
import type { EntityDescription, ResourceDescription } from '../../../generated/types.ts';
import { useCanAccess } from '../../../permissions/index.ts';
import { UploadStatus } from './UploadStatus.tsx';

/** An upload the server accepted from this form. */
export interface AcceptedUpload {
  uploadId: number;
  fileName: string;
}

interface UploadResultProps {
  resource: ResourceDescription;
  entity: EntityDescription;
  accepted: AcceptedUpload;
}

/**
 * What the last upload came to, above the form: what was sent, its status followed to the end, and the way to the
 * upload's own page. It takes the focus when it appears, so it is read and scrolled into view.
 */
export function UploadResult({ resource, entity, accepted }: UploadResultProps) {
  const ref = useRef<HTMLDivElement>(null);
  const mayOpen = useCanAccess(resource.module, 'view_detail').allowed;
  const detail =
    mayOpen && resource.routes.view_detail
      ? generatePath(resource.routes.view_detail, { id: String(accepted.uploadId) })
      : null;
  useEffect(() => {
    ref.current?.focus();
  }, [accepted]);
  return (
    <div ref={ref} tabIndex={-1} className="upload-result" role="group" aria-labelledby="upload-result-title">
      <p id="upload-result-title" className="upload-result__title">
        {accepted.fileName} was received as upload {accepted.uploadId}.
      </p>
      <p className="upload-result__next">
        {detail && (
          <>
            <Link to={detail}>Open upload {accepted.uploadId}</Link> for its log and history.{' '}
          </>
        )}
        The form below is ready for the next file.
      </p>
      <UploadStatus
        api={resource.api}
        uploadId={accepted.uploadId}
        statusField={entity.fields.find((field) => field.name === DATA_UPLOAD_FIELDS.status.field)}
      />
    </div>
  );
}
