import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { displayFieldError } from '../../../validation/messages.ts';
import { useRelationOptions } from '../../forms/useRelationOptions.ts';
import { http, isApiError } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { humanize } from '../shared/humanize.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { ExpectedColumns } from './uploads/ExpectedColumns.tsx';
import { UploadStatus } from './uploads/UploadStatus.tsx';
import '../screens.css';
import './custom.css';

interface UploadTicket {
  upload: { id: number };
  upload_url: string;
  fields: Record<string, string>;
  /** Set when the file goes to a bucket: the API path that tells the server it is there. */
  complete_path?: string | null;
}

type Fields = 'country_id' | 'trade_direction' | 'period' | 'file';
const REQUIRED = displayFieldError('This field is required');

/**
 * A trade-data upload: country, trade direction and period, then the file goes to the signed storage
 * URL with a progress bar (the server's own, or a bucket's presigned POST, after which the server is told
 * it is there), then processing is followed to its end with the rejected lines.
 * On a view_detail route it shows one upload's status and log.
 */
export default function DataUploadScreen({ resource, route }: ScreenProps) {
  const { id } = useParams();
  if (route.action === 'view_detail' && id) {
    return (
      <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
        <ScreenHeading actions={<BackLink to={resource.routes.view} />}>Upload {id}</ScreenHeading>
        <UploadStatus api={resource.api} uploadId={id} />
      </section>
    );
  }
  return <UploadForm resource={resource} />;
}

function BackLink({ to }: { to: string | undefined }) {
  return to ? (
    <Link className="button" to={to}>
      Back to upload logs
    </Link>
  ) : null;
}

function UploadForm({ resource }: Pick<ScreenProps, 'resource'>) {
  const fields = resource.entity?.fields ?? [];
  const countriesApi = fields.find((field) => field.name === 'country_id')?.relation?.api ?? 'countries';
  const directions = (fields.find((field) => field.name === 'trade_direction')?.enum ?? ['import', 'export']).map(String);
  const countries = useRelationOptions(countriesApi);
  const [values, setValues] = useState({ country_id: '', trade_direction: '', period: '' });
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadId, setUploadId] = useState<number | null>(null);
  /** An upload the server found to be a file already imported, waiting for the user's answer. */
  const [duplicate, setDuplicate] = useState<{ ticket: UploadTicket; file: File; message: string } | null>(null);
  /** Remounts the file input, which cannot be cleared through its value. */
  const [fileInputKey, setFileInputKey] = useState(0);

  /** Sends the file to the ticket's storage (and completes a bucket upload); the confirmation imports a duplicate. */
  const send = async (ticket: UploadTicket, chosen: File, confirmDuplicate: boolean) => {
    setProgress(0);
    try {
      if (!ticket.complete_path || !confirmDuplicate) {
        const body = new FormData();
        for (const [name, value] of Object.entries(ticket.fields)) body.append(name, value);
        if (confirmDuplicate) body.append('confirm_duplicate', 'true');
        body.append('file', chosen);
        // Without PUBLIC_URL the server answers a path on its own origin: the page's.
        await http.postAbsolute(new URL(ticket.upload_url, window.location.href).href, body, { onUploadProgress: setProgress });
      }
      if (ticket.complete_path) await http.post(ticket.complete_path, confirmDuplicate ? { confirm_duplicate: true } : {});
      toastSuccess(`${chosen.name} uploaded; processing has started.`);
      setUploadId(ticket.upload.id);
      setValues({ country_id: '', trade_direction: '', period: '' });
      setFile(null);
      setFileInputKey((key) => key + 1);
    } catch (error) {
      if (isApiError(error) && error.fieldErrors.confirm_duplicate) setDuplicate({ ticket, file: chosen, message: error.fieldErrors.confirm_duplicate });
      // The http client has shown the toast; field errors go on their fields (FORM-12).
      else if (isApiError(error)) setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([name, text]) => [name, displayFieldError(text)])));
    } finally {
      setProgress(null);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Partial<Record<Fields, string>> = {};
    for (const name of ['country_id', 'trade_direction', 'period'] as const) if (!values[name]) missing[name] = REQUIRED;
    if (!file) missing.file = REQUIRED;
    setErrors(missing);
    if (!file || Object.keys(missing).length > 0) {
      document.getElementById(`upload-${Object.keys(missing)[0]}`)?.focus();
      return;
    }
    setProgress(0);
    let ticket: UploadTicket;
    try {
      ticket = (
        await http.post<{ data: UploadTicket }>(resource.api, {
          country_id: Number(values.country_id),
          trade_direction: values.trade_direction,
          period: values.period,
          file_name: file.name,
          size: file.size,
        })
      ).data;
    } catch (error) {
      if (isApiError(error)) setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([name, text]) => [name, displayFieldError(text)])));
      setProgress(null);
      return;
    }
    await send(ticket, file, false);
  };

  const uploading = progress !== null;
  const describedBy = (name: Fields) => (errors[name] ? `upload-${name}-error` : undefined);
  const confirmDuplicate = () => {
    if (!duplicate) return;
    setDuplicate(null);
    void send(duplicate.ticket, duplicate.file, true);
  };
  const error = (name: Fields) =>
    errors[name] && (
      <span id={`upload-${name}-error`} className="field-error">
        {errors[name]}
      </span>
    );

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading actions={<BackLink to={resource.routes.view} />}>Upload trade data</ScreenHeading>
      <form className="panel simple-form" aria-label="Upload trade data" onSubmit={onSubmit} noValidate>
        <div className="simple-form__field">
          <label htmlFor="upload-country_id">Country</label>
          <select id="upload-country_id" value={values.country_id} aria-invalid={!!errors.country_id || undefined} aria-describedby={describedBy('country_id')} disabled={uploading} onChange={(event) => setValues({ ...values, country_id: event.target.value })}>
            <option value="">{countries.isPending ? 'Loading…' : 'Select…'}</option>
            {(countries.data ?? []).map((option) => (
              <option key={String(option.value)} value={String(option.value)}>
                {option.label}
              </option>
            ))}
          </select>
          {error('country_id')}
        </div>
        <div className="simple-form__field">
          <label htmlFor="upload-trade_direction">Trade direction</label>
          <select id="upload-trade_direction" value={values.trade_direction} aria-invalid={!!errors.trade_direction || undefined} aria-describedby={describedBy('trade_direction')} disabled={uploading} onChange={(event) => setValues({ ...values, trade_direction: event.target.value })}>
            <option value="">Select…</option>
            {directions.map((direction) => (
              <option key={direction} value={direction}>
                {humanize(direction)}
              </option>
            ))}
          </select>
          {error('trade_direction')}
        </div>
        <div className="simple-form__field">
          <label htmlFor="upload-period">Period (month)</label>
          <input id="upload-period" type="month" value={values.period} aria-invalid={!!errors.period || undefined} aria-describedby={describedBy('period')} disabled={uploading} onChange={(event) => setValues({ ...values, period: event.target.value })} />
          {error('period')}
        </div>
        <div className="simple-form__field">
          <label htmlFor="upload-file">File (CSV)</label>
          <input
            key={fileInputKey}
            id="upload-file"
            type="file"
            accept=".csv,text/csv"
            aria-invalid={!!errors.file || undefined}
            aria-describedby={[describedBy('file'), 'upload-file-columns'].filter(Boolean).join(' ')}
            disabled={uploading}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          {error('file')}
          <ExpectedColumns api={resource.api} tradeDirection={values.trade_direction} id="upload-file-columns" />
        </div>
        {uploading && (
          <div role="status">
            <progress className="progress-bar" aria-label="Upload progress" max={1} value={progress} />
            <span>{Math.round(progress * 100)}% sent</span>
          </div>
        )}
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={uploading}>
            {uploading ? 'Uploading…' : 'Upload'}
          </button>
        </div>
      </form>
      {uploadId !== null && <UploadStatus api={resource.api} uploadId={uploadId} />}
      {duplicate && (
        <ConfirmDialog title="Import this file again?" confirmLabel="Import again" onConfirm={confirmDuplicate} onCancel={() => setDuplicate(null)}>
          <p>{duplicate.message}</p>
          <p>Importing it again adds the rows of {duplicate.file.name} a second time.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
