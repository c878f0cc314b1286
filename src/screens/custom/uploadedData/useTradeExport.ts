import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { saveBlob } from '../../shared/saveBlob.ts';

/** A background export as the report's API answers it (docs/api.md, "Uploaded data report"). */
export interface TradeExport {
  id: number;
  status: 'queued' | 'running' | 'completed' | 'failed';
  rows_estimated: number;
  rows_written: number;
  error: string | null;
  file: string | null;
}

/** How often a background export's progress is asked again. */
export const EXPORT_POLL_MS = 1000;
const FILE_NAME = 'uploaded-data.csv';

export interface UseTradeExportResult {
  /** The background export under way or done, followed until it ends. */
  job: TradeExport | null;
  /** A download in flight (a direct export, or a finished job's file). */
  downloading: boolean;
  /** Exports the filter: in the background when `inBackground`, otherwise downloaded at once. */
  start: (filter: Record<string, string>, inBackground: boolean) => Promise<void>;
  download: () => Promise<void>;
}

/** The report's export: a direct download for a small one, a background export with progress for a large one. */
export function useTradeExport(api: string): UseTradeExportResult {
  const [jobId, setJobId] = useState<number | null>(null);
  const [downloading, setDownloading] = useState(false);
  const job = useQuery({
    queryKey: ['resource', api, 'exports', jobId],
    queryFn: ({ signal }) =>
      http.get<{ data: TradeExport }>(`${api}/exports/${jobId}`, { loader: false, signal }).then((body) => body.data),
    enabled: jobId !== null,
    refetchInterval: (query) =>
      query.state.data && (query.state.data.status === 'completed' || query.state.data.status === 'failed')
        ? false
        : EXPORT_POLL_MS,
  });
  const fetchFile = async (path: string, params: Record<string, string> = {}, fileName = FILE_NAME) => {
    setDownloading(true);
    try {
      saveBlob(await http.download(path, params), fileName);
    } catch {
      // The http client has already shown the error toast.
    } finally {
      setDownloading(false);
    }
  };
  return {
    job: jobId === null ? null : (job.data ?? null),
    downloading,
    start: async (filter, inBackground) => {
      if (!inBackground) return fetchFile(`${api}/export`, filter);
      const created = await http.post<{ data: TradeExport }>(`${api}/exports`, filter);
      setJobId(created.data.id);
    },
    download: async () => {
      if (job.data?.file) await fetchFile(job.data.file, {}, `uploaded-data-${job.data.id}.csv`);
    },
  };
}
