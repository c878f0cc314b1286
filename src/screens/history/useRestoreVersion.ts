import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HistoryEntryAnswer } from '../../../contract/audit.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { Row } from '../shared/formatValue.ts';

const BAD_REQUEST = 400;
const CONFLICT = 409;

/**
 * "Restore this version": POST `<api>/:id/history/:entry/restore` at the version shown (If-Match). A refusal (a
 * unique value taken, a related record gone, the record changed since) is the caller's to show where the user is.
 */
export function useRestoreVersion(api: string, recordId: string, version: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: HistoryEntryAnswer) =>
      http.postRecord<{ data: Row; message?: string }>(`${api}/${recordId}/history/${entry.id}/restore`, undefined, {
        ifMatch: version,
        shownByCaller: [BAD_REQUEST, CONFLICT],
      }),
    onSuccess: (body) => toastSuccess(body.message ?? 'Version restored.'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['resource', api] }),
  });
}
