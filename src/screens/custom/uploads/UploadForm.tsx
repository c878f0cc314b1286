import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PreviousUpload } from 'tus-js-client';
import { Link } from 'react-router-dom';
import { SchemaForm, formUiSchema, type FormData, type ServerFieldErrors } from '../../../forms/index.ts';
import type { EntityDescription, ResourceDescription } from '../../../generated/types.ts';
import { http, isApiError } from '../../../http/index.ts';
import { DryRunSummary } from './DryRunSummary.tsx';
import { ExpectedColumns, useExpectedColumns } from './ExpectedColumns.tsx';
import { ExpectedFormats } from './ExpectedFormats.tsx';
import { PublishedMonthDialog, completionBody, type MonthAnswer, type MonthQuestion } from './PublishedMonthDialog.tsx';
import { forgetSending, unfinishedSending, type SentFileRecord } from './resumableFile.ts';
import { SendingProgress, UnfinishedSending } from './SendingProgress.tsx';
import { UploadResult, type AcceptedUpload } from './UploadResult.tsx';
import { failureText, type FormNotice } from './uploadNotice.ts';
import { useDryRun } from './useDryRun.ts';
import { useFileSending } from './useFileSending.ts';
import './uploadResult.css';

interface UploadTicket {
  upload: { id: number };
  /** The file's signed tus endpoint. */
  upload_url: string;
  /** The API path that tells the server the whole file is there. */
  complete_path: string;
}

/** A file this browser was sending when the page was left, found again when the user picked it. */
interface Unfinished {
  file: File;
  record: SentFileRecord;
  previous: PreviousUpload;
}

const CONFLICT = 409;
/** Failures this form says beside itself (with the reason), so no "Error" toast repeats them; 0 is no answer at all. */
const SAID_HERE = { shownByCaller: [0, 400, 403, 404, CONFLICT, 413, 415, 422, 429, 500, 502, 503] } as const;
/** The file's size, and what the server says about the file itself, show on the file's field. */
const ERRORS_SHOWN_ON = { size: 'file_name', file: 'file_name' } as const;

export interface UploadFormProps {
  resource: ResourceDescription;
  entity: EntityDescription;
}

/**
 * A trade-data upload as a form of the generated kind: country (searched on the server), trade direction and period
 * from the manifest, and the file. The file is sent in chunks to its upload's signed URL (tus), with its progress, speed
 * and time left, a pause, and a resume after a break or a reload; the server is then told it is there, and processing is
 * followed to its end.
 */
export function UploadForm({ resource, entity }: UploadFormProps) {
  const [formData, setFormData] = useState<FormData>({});
  const [file, setFile] = useState<File | null>(null);
  const { sending, send: sendFile, pause, resume } = useFileSending();
  const [starting, setStarting] = useState(false);
  const [unfinished, setUnfinished] = useState<Unfinished | null>(null);
  /** The last upload the server accepted, shown above the form. */
  const [accepted, setAccepted] = useState<AcceptedUpload | null>(null);
  /** Why the last try came to nothing (or that it was cancelled), said beside the form's buttons. */
  const [notice, setNotice] = useState<FormNotice | null>(null);
  /** Changed after a success: the form starts again untouched, with no "required" errors for the fields it emptied. */
  const [formKey, setFormKey] = useState(0);
  const [serverErrors, setServerErrors] = useState<ServerFieldErrors | null>(null);
  /** An upload the server asked about (the same file before, or its month already published), waiting for the user's answer. */
  const [asked, setAsked] = useState<{
    record: SentFileRecord;
    file: File;
    data: FormData;
    question: MonthQuestion;
  } | null>(null);
  const cancelPath = (uploadId: number) => `${resource.api}/${uploadId}/cancel`;
  // A question left unanswered (the page left while it was open) cancels its upload rather than leave it waiting.
  const unanswered = useRef<string | null>(null);
  unanswered.current = asked ? cancelPath(asked.record.uploadId) : null;
  useEffect(
    () => () => {
      if (unanswered.current) void http.post(unanswered.current, {}, { loader: false }).catch(() => undefined);
    },
    [],
  );

  const onFile = useCallback((chosen: File | null) => {
    setFile(chosen);
    setUnfinished(null);
    setFormData((current) => ({ ...current, file_name: chosen?.name, size: chosen?.size }));
    if (chosen) void unfinishedSending(chosen).then((found) => found && setUnfinished({ file: chosen, ...found }));
  }, []);
  const tradeDirection = typeof formData.trade_direction === 'string' ? formData.trade_direction : '';
  const columns = useExpectedColumns(resource.api, tradeDirection);
  const dryRun = useDryRun(file, columns.data);
  const dryRunPanel = useRef<HTMLElement>(null);
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

  /** A try that came to nothing: the form keeps what was chosen, and says why (on the fields the server named, and beside the buttons). */
  const refused = (error: unknown, data: FormData) => {
    if (isApiError(error) && Object.keys(error.fieldErrors).length > 0)
      setServerErrors({ fields: error.fieldErrors, submitted: data });
    setNotice({ kind: 'failed', text: failureText(error) });
  };

  /** Tells the server the whole file is there; it checks it and queues it, or asks first (a duplicate, a published month). */
  const complete = async (
    record: SentFileRecord,
    chosen: File,
    data: FormData,
    answers: Record<string, boolean> = {},
  ) => {
    try {
      await http.post(record.completePath, answers, SAID_HERE);
      setAccepted({ uploadId: record.uploadId, fileName: chosen.name });
      setFormData({});
      setFile(null);
      setServerErrors(null);
      setNotice(null);
      setFormKey((key) => key + 1);
    } catch (error) {
      // A file already imported, or a month already published, is a question for the user, asked once in the dialog.
      const question = isApiError(error)
        ? {
            duplicate: error.fieldErrors.confirm_duplicate ?? null,
            published: error.fieldErrors.confirm_published ?? null,
          }
        : null;
      if (question && (question.duplicate || question.published)) setAsked({ record, file: chosen, data, question });
      else refused(error, data);
    }
  };

  /** Sends the file in chunks to its upload's signed URL (resuming a previous sending), then completes the upload. */
  const send = (url: string, record: SentFileRecord, chosen: File, data: FormData, previous?: PreviousUpload) =>
    sendFile({ url, record, previous }, chosen, {
      onSent: () => void complete(record, chosen, data),
      onFailed: (message) => setNotice({ kind: 'failed', text: `Nothing was uploaded: ${message}` }),
    });

  const upload = async (data: FormData) => {
    if (!file) return;
    setServerErrors(null);
    setNotice(null);
    setAccepted(null);
    // A file whose header the import would refuse is not sent: the dry run says why (rejected rows only warn).
    const checked = await dryRun.settled(file);
    if (checked && !checked.sendable) {
      const why = checked.problem
        ? 'the file cannot be read as the import reads it'
        : "the file's header does not match the columns of this trade direction";
      setNotice({ kind: 'failed', text: `Nothing was uploaded: ${why}. See the check of ${file.name}.` });
      dryRunPanel.current?.focus();
      return;
    }
    setStarting(true);
    let ticket: UploadTicket;
    try {
      ticket = (await http.post<{ data: UploadTicket }>(resource.api, data, SAID_HERE)).data;
    } catch (error) {
      refused(error, data);
      return;
    } finally {
      setStarting(false);
    }
    await send(
      ticket.upload_url,
      { uploadId: ticket.upload.id, completePath: ticket.complete_path, startedAt: Date.now() },
      file,
      data,
    );
  };

  const resumeUnfinished = () => {
    if (!unfinished?.previous.uploadUrl) return;
    setUnfinished(null);
    setNotice(null);
    setAccepted(null);
    void send(unfinished.previous.uploadUrl, unfinished.record, unfinished.file, formData, unfinished.previous);
  };

  const discardUnfinished = () => {
    if (!unfinished) return;
    setUnfinished(null);
    void forgetSending(unfinished.previous);
  };

  const answer = (choice: MonthAnswer) => {
    if (!asked) return;
    setAsked(null);
    void complete(asked.record, asked.file, asked.data, completionBody(asked.question, choice));
  };

  /** The question declined: the upload is cancelled (its file removed), not left waiting; the form keeps what was chosen. */
  const decline = async () => {
    if (!asked) return;
    setAsked(null);
    try {
      await http.post(cancelPath(asked.record.uploadId), {});
      setNotice({
        kind: 'cancelled',
        text: `Upload ${asked.record.uploadId} was cancelled: nothing of ${asked.file.name} was imported.`,
      });
    } catch {
      // The http client has already said why.
    }
  };

  const uploading = starting || sending !== null;
  return (
    <>
      {accepted && <UploadResult resource={resource} entity={entity} accepted={accepted} />}
      <SchemaForm
        key={formKey}
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
          sending ? (
            <SendingProgress state={sending} onPause={pause} onResume={resume} />
          ) : (
            <>
              {notice && (
                <p
                  role={notice.kind === 'failed' ? 'alert' : 'status'}
                  className={notice.kind === 'failed' ? 'form-alert' : 'form-notice'}
                >
                  {notice.text}
                </p>
              )}
              {unfinished && (
                <UnfinishedSending
                  fileName={unfinished.file.name}
                  record={unfinished.record}
                  onResume={resumeUnfinished}
                  onDiscard={discardUnfinished}
                />
              )}
            </>
          )
        }
        actions={
          resource.routes.view && (
            <Link className="button" to={resource.routes.view}>
              Back to {resource.label.toLowerCase()}
            </Link>
          )
        }
      >
        {/* After the file's field, before the buttons: what the import would say of the chosen file, and the columns. */}
        <DryRunSummary ref={dryRunPanel} state={dryRun.state} />
        {columns.data && tradeDirection && (
          <ExpectedFormats
            columns={columns.data}
            tradeDirection={tradeDirection}
            open={dryRun.state.kind === 'done' && !dryRun.state.result.sendable}
          />
        )}
      </SchemaForm>
      {asked && (
        <PublishedMonthDialog
          question={asked.question}
          fileName={asked.file.name}
          onAnswer={answer}
          onCancel={() => void decline()}
        />
      )}
    </>
  );
}
