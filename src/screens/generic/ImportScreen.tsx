import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { http, isApiError } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { saveBlob } from '../shared/saveBlob.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { ColumnMapping } from './import/ColumnMapping.tsx';
import { DryRunTable } from './import/DryRunTable.tsx';
import type { DryRunResult, UploadedFile } from './import/importTypes.ts';
import '../screens.css';
import { BusyButton } from '../shared/BusyButton.tsx';

type Step = 'dry-run' | 'apply';

/**
 * Import from a CSV or XLSX file: the server reads it and matches its columns to fields; the user adjusts the
 * mapping, sees a dry run of every row (to create, to update, unchanged, in error with each message on its cell),
 * then applies all of it in one transaction. The refused rows download as CSV with their reasons.
 */
export default function ImportScreen({ resource }: ScreenProps) {
  const fileId = useId();
  const [chosen, setChosen] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [dryRun, setDryRun] = useState<DryRunResult | null>(null);
  const [progress, setProgress] = useState<{ step: Step; done: number; total: number } | null>(null);
  const [applied, setApplied] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const plural = resource.label.toLowerCase();
  const base = `${resource.api}/import`;

  const upload = async () => {
    if (!chosen) return;
    const form = new FormData();
    form.append('file', chosen);
    setUploading(true);
    setProblem(null);
    try {
      const answer = await http.post<{ data: UploadedFile }>(base, form, { shownByCaller: [400] });
      setFile(answer.data);
      setMapping(answer.data.mapping);
      setDryRun(null);
      setApplied(null);
    } catch (error) {
      if (isApiError(error)) setProblem(Object.values(error.fieldErrors)[0] ?? error.message);
    } finally {
      setUploading(false);
    }
  };

  const run = async (step: Step) => {
    if (!file) return;
    setProgress({ step, done: 0, total: file.rows });
    setProblem(null);
    try {
      const onProgress = (done: number, total: number) => setProgress({ step, done, total });
      if (step === 'dry-run') {
        const result = await http.postWithProgress<DryRunResult>(
          `${base}/${file.id}/dry-run`,
          { mapping },
          { onProgress, shownByCaller: [400] },
        );
        setDryRun(result.data);
      } else {
        const result = await http.postWithProgress<{ counts: DryRunResult['counts'] }>(
          `${base}/${file.id}/apply`,
          { mapping },
          { onProgress },
        );
        setApplied(result.message);
        toastSuccess(result.message);
      }
    } catch (error) {
      if (isApiError(error) && error.status === 400) setProblem(Object.values(error.fieldErrors)[0] ?? error.message);
    } finally {
      setProgress(null);
    }
  };

  const download = async (path: string, name: string) => {
    const blob = await http.download(path).catch(() => null);
    if (blob) saveBlob(blob, name);
  };
  const changes = dryRun ? dryRun.counts.create + dryRun.counts.update : 0;

  return (
    <section className="screen import-screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          <button
            type="button"
            className="button"
            onClick={() => void download(`${base}/template`, `${resource.api.replace(/\//g, '-')}-import-template.csv`)}
          >
            Download template
          </button>
        }
      >
        Import {plural}
      </ScreenHeading>
      <p>
        Upload a CSV or XLSX file whose first row names the columns. Rows are matched to existing {plural} on their key
        field: a match is updated, anything else is created. Empty cells leave a record&apos;s value as it is. Nothing
        changes until you apply the dry run.
      </p>
      <div className="import-upload">
        <label htmlFor={fileId}>File</label>
        <input
          id={fileId}
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => setChosen(event.target.files?.[0] ?? null)}
        />
        <BusyButton
          className="button button--primary"
          disabled={!chosen}
          busy={uploading}
          busyLabel="Reading…"
          onClick={() => void upload()}
        >
          Read the file
        </BusyButton>
      </div>
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
      {file && (
        <>
          <p>
            {file.rows.toLocaleString('en')} row(s) in {file.file_name}. Check which field each column fills, then run
            the dry run.
          </p>
          <ColumnMapping
            file={file}
            mapping={mapping}
            onChange={(next) => {
              setMapping(next);
              setDryRun(null);
            }}
          />
          <div className="import-actions">
            <button type="button" className="button" disabled={progress !== null} onClick={() => void run('dry-run')}>
              Dry run
            </button>
            {dryRun && (
              <button
                type="button"
                className="button button--primary"
                disabled={progress !== null || changes === 0 || applied !== null}
                onClick={() => void run('apply')}
              >
                Apply {changes.toLocaleString('en')} change(s)
              </button>
            )}
            {dryRun && dryRun.counts.error > 0 && (
              <button
                type="button"
                className="button"
                onClick={() =>
                  void download(`${base}/${file.id}/rejected`, `rejected-${file.file_name.replace(/\.[^.]*$/, '')}.csv`)
                }
              >
                Download refused rows
              </button>
            )}
          </div>
        </>
      )}
      {progress && (
        <div role="status" className="export-progress">
          <progress
            className="progress-bar"
            aria-label={progress.step === 'dry-run' ? 'Progress of the dry run' : 'Progress of the import'}
            max={Math.max(progress.total, 1)}
            value={progress.done}
          />
          <span>
            {progress.done.toLocaleString('en')} of {progress.total.toLocaleString('en')} rows
          </span>
        </div>
      )}
      {applied && (
        <p role="status">
          {applied} <Link to={resource.routes.view ?? '..'}>Back to {plural}</Link>
        </p>
      )}
      {file && dryRun && <DryRunTable file={file} mapping={mapping} result={dryRun} />}
    </section>
  );
}
