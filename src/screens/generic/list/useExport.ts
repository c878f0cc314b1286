import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { saveBlob } from '../../shared/saveBlob.ts';

export interface UseExportResult {
  /** null when idle; while downloading, the fraction received (0 until the server sends a length). */
  progress: number | null;
  /** Downloads the server's CSV of the current filter and visible columns (null: the columns the export always has). */
  exportCsv: (
    params: Record<string, string | number>,
    columns: readonly string[] | null,
    fileName: string,
  ) => Promise<void>;
}

/** A CSV download: GET `<api>/export` with the screen's filters, sort and, for a list, `_columns`. */
export function useExport(api: string): UseExportResult {
  const [progress, setProgress] = useState<number | null>(null);
  const exportCsv = async (
    params: Record<string, string | number>,
    columns: readonly string[] | null,
    fileName: string,
  ) => {
    setProgress(0);
    try {
      const query = Object.fromEntries(
        Object.entries(params).filter(([key]) => key !== '_page' && key !== '_page_size'),
      );
      const blob = await http.download(`${api}/export`, columns ? { ...query, _columns: columns.join(',') } : query, {
        onDownloadProgress: setProgress,
      });
      saveBlob(blob, fileName);
    } catch {
      // The http client has already shown the error toast.
    } finally {
      setProgress(null);
    }
  };
  return { progress, exportCsv };
}
