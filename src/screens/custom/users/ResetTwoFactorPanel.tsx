import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { formatDate } from '../../shared/formatValue.ts';

export interface ResetTwoFactorPanelProps {
  /** `users/12`. */
  owner: string;
}

interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
  enabled_at: string | null;
}

/**
 * Whether the user's two-factor sign-in is on (`GET users/:id/two-factor`) and, when it is, "Reset two-factor" for an
 * administrator who may edit users: after a confirmation the user signs in with their password alone until they enrol
 * again, and is told by e-mail (`DELETE users/:id/two-factor`).
 */
export function ResetTwoFactorPanel({ owner }: ResetTwoFactorPanelProps) {
  const queryClient = useQueryClient();
  const queryKey = ['two-factor', owner];
  const [asking, setAsking] = useState(false);
  const status = useQuery({
    queryKey,
    queryFn: ({ signal }) => http.get<{ data: TwoFactorStatus }>(`${owner}/two-factor`, { signal }).then((b) => b.data),
  });
  const reset = useMutation({
    mutationFn: () => http.delete<{ message: string }>(`${owner}/two-factor`),
    onSuccess: (body) => {
      toastSuccess(body.message);
      void queryClient.invalidateQueries({ queryKey });
    },
    onSettled: () => setAsking(false),
  });
  const on = status.data?.enabled === true;
  return (
    <section className="panel" aria-labelledby="reset-two-factor-title">
      <h2 id="reset-two-factor-title">Two-factor sign-in</h2>
      {status.isPending && <p>Loading…</p>}
      {status.isError && <p>Whether two-factor sign-in is on could not be loaded.</p>}
      {status.data && !on && <p>Off: this user signs in with their password alone.</p>}
      {on && (
        <>
          <p>
            On since {formatDate(status.data!.enabled_at, true)}, with an authenticator app;{' '}
            {status.data!.recovery_codes_left} recovery codes left. A user who lost their phone and their recovery codes
            cannot sign in: reset their second factor.
          </p>
          <div>
            <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
              Reset two-factor
            </button>
          </div>
        </>
      )}
      {asking && (
        <ConfirmDialog
          title="Reset two-factor sign-in?"
          confirmLabel="Reset two-factor"
          destructive
          busy={reset.isPending}
          onConfirm={() => !reset.isPending && reset.mutate()}
          onCancel={() => setAsking(false)}
        >
          <p>
            This user will sign in with their password alone until they set up an authenticator app again. They are told
            by e-mail, and the reset is written in the audit log.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
