import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { SchemaForm, formUiSchema, type FormData, type ServerFieldErrors } from '../../../forms/index.ts';
import type { EntityDescription, ResourceDescription } from '../../../generated/types.ts';
import { http, isApiError } from '../../../http/index.ts';
import { toastError, toastSuccess } from '../../../shell/index.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { ExpectedColumns } from './ExpectedColumns.tsx';
import { UploadStatus } from './UploadStatus.tsx';

interface UploadTicket {
  upload: { id: number };
  upload_url: string;
  fields: Record<string, string>;
  /** Set when the file goes to a bucket: the API path that tells the server it is there. */
  complete_path?: string | null;
}

const CONFLICT = 409;
/** The file's size, and what the server says about the file itself, show on the file's field. */
const ERRORS_SHOWN_ON = { size: 'file_name', file: 'file_name' } as const;

export interface UploadFormProps {
  resource: ResourceDescription;
  entity: EntityDescription;
}

/**
 * A trade-data upload as a form of the generated kind: country (searched on the server), trade direction and period
 * from the manifest, and the file. The file goes to the signed storage URL with a progress bar (the server's own, or a
 * bucket's presigned POST, after which the server is told it is there), then processing is followed to its end.
 */
export function UploadForm({ resource, entity }: UploadFormProps) {
  const [formData, setFormData] = useState<FormData>({});
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadId, setUploadId] = useState<number | null>(null);
  const [serverErrors, setServerErrors] = useState<ServerFieldErrors | null>(null);
  /** An upload the server found to be a file already imported, waiting for the user's answer. */
  const [duplicate, setDuplicate] = useState<{ ticket: UploadTicket; file: File; data: FormData; message: string } | null>(null);

  const onFile = useCallback((chosen: File | null) => {
    setFile(chosen);
    setFormData((current) => ({ ...current, file_name: chosen?.name, size: chosen?.size }));
  }, []);
  const tradeDirection = typeof formData.trade_direction === 'string' ? formData.trade_direction : '';
  const uiSchema = useMemo(() => {
    const base = formUiSchema(entity.fields, resource.uiSchema) as Record<string, Record<string, unknown>>;
    const fileField = base.file_name ?? {};
    return {
      ...base,
      file_name: {
        ...fileField,
        'ui:options': { ...(fileField['ui:options'] as object), onFile },
        // Under the file's field, and part of its description: the header the file needs for the chosen direction.
        'ui:help': <ExpectedColumns api={resource.api} tradeDirection={tradeDirection} />,
      },
    };
  }, [entity, resource, onFile, tradeDirection]);

  const refused = (error: unknown, data: FormData) => {
    if (isApiError(error) && Object.keys(error.fieldErrors).length > 0) setServerErrors({ fields: error.fieldErrors, submitted: data });
  };

  /** Sends the file to the ticket's storage (and completes a bucket upload); the confirmation imports a duplicate. */
  const send = async (ticket: UploadTicket, chosen: File, data: FormData, confirmDuplicate: boolean) => {
    setProgress(0);
    try {
      let answer: { message?: string } | undefined;
      if (!ticket.complete_path || !confirmDuplicate) {
        const body = new globalThis.FormData();
        for (const [name, value] of Object.entries(ticket.fields)) body.append(name, value);
        if (confirmDuplicate) body.append('confirm_duplicate', 'true');
        body.append('file', chosen);
        // Without PUBLIC_URL the server answers a path on its own origin: the page's.
        const url = new URL(ticket.upload_url, window.location.href).href;
        answer = await http.postAbsolute<{ message?: string } | undefined>(url, body, { onUploadProgress: setProgress, shownByCaller: [CONFLICT] });
      }
      if (ticket.complete_path) answer = await http.post<{ message?: string }>(ticket.complete_path, confirmDuplicate ? { confirm_duplicate: true } : {}, { shownByCaller: [CONFLICT] });
      toastSuccess(answer?.message ?? `${chosen.name} was received and is being processed.`);
      setUploadId(ticket.upload.id);
      setFormData({});
      setFile(null);
    } catch (error) {
      // A file already imported is a question for the user, asked once in the dialog; any other conflict is said once.
      if (isApiError(error) && error.fieldErrors.confirm_duplicate) setDuplicate({ ticket, file: chosen, data, message: error.fieldErrors.confirm_duplicate });
      else if (isApiError(error) && error.status === CONFLICT) toastError(error.message);
      else refused(error, data);
    } finally {
      setProgress(null);
    }
  };

  const upload = async (data: FormData) => {
    if (!file) return;
    setServerErrors(null);
    setProgress(0);
    let ticket: UploadTicket;
    try {
      ticket = (await http.post<{ data: UploadTicket }>(resource.api, data)).data;
    } catch (error) {
      refused(error, data);
      setProgress(null);
      return;
    }
    await send(ticket, file, data, false);
  };

  const confirmDuplicate = () => {
    if (!duplicate) return;
    setDuplicate(null);
    void send(duplicate.ticket, duplicate.file, duplicate.data, true);
  };

  const uploading = progress !== null;
  return (
    <>
      <SchemaForm
        label="Upload trade data"
        schema={entity.createSchema}
        validate={entity.validateCreate}
        uiSchema={uiSchema}
        formData={formData}
        onChange={setFormData}
        onSubmit={(data) => void upload(data)}
        serverErrors={serverErrors}
        errorsShownOn={ERRORS_SHOWN_ON}
        saving={uploading}
        submitLabel="Upload"
        busyLabel="Uploading…"
        notice={
          uploading && (
            <div role="status" className="upload-progress">
              <progress className="progress-bar" aria-label="Upload progress" max={1} value={progress} />
              <span>{Math.round(progress * 100)}% sent</span>
            </div>
          )
        }
        actions={
          resource.routes.view && (
            <Link className="button" to={resource.routes.view}>
              Back to {resource.label.toLowerCase()}
            </Link>
          )
        }
      />
      {uploadId !== null && <UploadStatus api={resource.api} uploadId={uploadId} statusField={entity.fields.find((field) => field.name === 'status')} />}
      {duplicate && (
        <ConfirmDialog title="Import this file again?" confirmLabel="Import again" onConfirm={confirmDuplicate} onCancel={() => setDuplicate(null)}>
          <p>{duplicate.message}</p>
          <p>Importing it again adds the rows of {duplicate.file.name} a second time.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
