import { Link, useParams } from 'react-router-dom';
import { DATA_UPLOAD_FIELDS } from '../../../contract/modules.ts';
import { AREAS } from '../../generated/routes.ts';
import type { ResourceDescription } from '../../generated/types.ts';
import { useCanAccess } from '../../permissions/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { HistorySection } from '../history/HistorySection.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { UploadForm } from './uploads/UploadForm.tsx';
import { ChangeLimits } from './uploads/ReviewThresholdsDialog.tsx';
import { UploadReviewPanel } from './uploads/UploadReview.tsx';
import { UploadStatus, useUploadLog } from './uploads/UploadStatus.tsx';
import '../screens.css';
import './custom.css';

/**
 * A trade-data upload (the add route), or, on a view_detail route, one upload's status and log.
 */
export default function DataUploadScreen({ resource, route }: ScreenProps) {
  const { id } = useParams();
  const entity = resource.entity;
  const back = resource.routes.view && (
    <Link className="button" to={resource.routes.view}>
      Back to {resource.label.toLowerCase()}
    </Link>
  );
  if (route.action === 'view_detail' && id) {
    return (
      <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
        <ScreenHeading actions={back}>Upload {id}</ScreenHeading>
        <UploadDetail resource={resource} uploadId={id} />
      </section>
    );
  }
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading actions={<ChangeLimits />}>Upload trade data</ScreenHeading>
      {entity && <UploadForm resource={resource} entity={entity} />}
    </section>
  );
}

/** The report's route, where an upload's records are listed (filtered by the upload). */
const REPORT_ROUTE = AREAS.flatMap((area) => area.routes).find(
  (route) => route.module === 'UPLOADED_DATA_REPORT' && route.action === 'view',
)?.path;

/**
 * One upload: its status and log, its checks before publishing (for a reviewer), a link to its records, then its
 * History (who uploaded it, each status it had).
 */
function UploadDetail({ resource, uploadId }: { resource: ResourceDescription; uploadId: string }) {
  const log = useUploadLog(resource.api, uploadId);
  const canSeeRecords = useCanAccess('UPLOADED_DATA_REPORT', 'view').allowed;
  return (
    <>
      <UploadStatus
        api={resource.api}
        uploadId={uploadId}
        statusField={resource.entity?.fields.find((field) => field.name === DATA_UPLOAD_FIELDS.status.field)}
      />
      {log.data && <UploadReviewPanel api={resource.api} uploadId={uploadId} status={log.data.upload.status} />}
      {canSeeRecords && REPORT_ROUTE && log.data?.upload.status === 'published' && (
        <p>
          <Link to={`${REPORT_ROUTE}?upload_id=${encodeURIComponent(uploadId)}`}>
            Its {(log.data.upload.rows_accepted ?? 0).toLocaleString('en')} records in the Uploaded Data Report
          </Link>
        </p>
      )}
      {log.data && <HistorySection resource={resource} recordId={uploadId} version={log.data.upload.version} />}
    </>
  );
}
