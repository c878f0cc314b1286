/** The CSV download under way (`progress` from useExport: the fraction received, 0 until the size is known), else nothing. */
export function ExportProgress({ progress }: { progress: number | null }) {
  if (progress === null) return null;
  return (
    <div role="status" className="export-progress">
      <progress className="progress-bar" aria-label="Downloading the CSV file" max={1} value={progress || undefined} />
      <span>Downloading the CSV file…</span>
    </div>
  );
}
