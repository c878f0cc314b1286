import { Link, useParams } from 'react-router-dom';
import type { ScreenProps } from '../ScreenProps.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { UploadForm } from './uploads/UploadForm.tsx';
import { UploadStatus } from './uploads/UploadStatus.tsx';
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
        <UploadStatus api={resource.api} uploadId={id} statusField={entity?.fields.find((field) => field.name === 'status')} />
      </section>
    );
  }
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>Upload trade data</ScreenHeading>
      {entity && <UploadForm resource={resource} entity={entity} />}
    </section>
  );
}
